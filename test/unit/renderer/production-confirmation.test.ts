import { describe, expect, it } from 'vitest';
import { confirmationHeading } from '../../../src-renderer/features/ticket/TicketPanel';

describe('the order confirmation', () => {
  it('names the environment the order goes to, Production as the desk bar marks it', () => {
    expect(confirmationHeading('production')).toMatch(/^PRODUCTION: real money/);
    expect(confirmationHeading('development')).toBe('Development: confirm this order');
    expect(confirmationHeading('local')).toBe('Local: confirm this order');
  });
});

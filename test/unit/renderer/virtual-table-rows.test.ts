/**
 * The blotters' table: each row drawn asks its key once (a blotter's key may be built from several fields, and a
 * scroll draws a screenful of rows), and a held key's repeats press none of its controls. Drawn with react-dom/server.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ignoreHeldKeys, VirtualTable } from '../../../src-renderer/ui/VirtualTable';

describe('the virtual table', () => {
  it('asks each row drawn for its key once', () => {
    const asked: string[] = [];
    const rows = ['a', 'b', 'c'];
    const html = renderToStaticMarkup(
      createElement(VirtualTable<string>, { label: 'Rows', rows, height: 240, columns: [{ key: 'v', header: 'V', value: (r: string) => r }], rowKey: (r: string) => (asked.push(r), `k-${r}`) }),
    );
    expect([...html.matchAll(/data-row="([^"]*)"/g)].map((m) => m[1])).toEqual(['k-a', 'k-b', 'k-c']);
    expect(asked).toEqual(['a', 'b', 'c']);
  });

  it("passes a key's first press and ignores its repeats, of Enter and Space only", () => {
    const prevented = (key: string, repeat: boolean): boolean => {
      let done = false;
      ignoreHeldKeys({ key, repeat, preventDefault: () => void (done = true) });
      return done;
    };
    expect([prevented('Enter', false), prevented(' ', false), prevented('Enter', true), prevented(' ', true), prevented('ArrowDown', true), prevented('Tab', true)]).toEqual([false, false, true, true, false, false]);
  });
});

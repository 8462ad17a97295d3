/**
 * What the venue does when a flag or option is not given. Apart so that `npm run venue` can name them in its
 * usage, and take signals, before it loads the venue itself.
 */
export const DEFAULT_ORDER_RATE = 50;
export const DEFAULT_REQUEST_RATE = 200;
export const DEFAULT_SEED = 1;
export const DEFAULT_MAX_OPEN_ORDERS = 1000;

// The product's names, in one place for the app and its packaging (electron-builder.ts reads them too).

/** Shown to the trader: window titles, menus, About, installers. */
export const PRODUCT_NAME = 'Nova Desk';
/** macOS bundle id and Windows AppUserModelID: Windows shows notifications only from an app that sets it. */
export const APP_ID = 'com.novadesk.desk';

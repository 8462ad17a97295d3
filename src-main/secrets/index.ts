export { redact, REDACTED } from './redact';
export { KeychainSecretStore, MemorySecretStore, openSecretStore, SECRET_SERVICE, SecretStoreError } from './secret-store';
export type { OpenSecretStoreOptions, SecretStore, SecretStoreKind } from './secret-store';

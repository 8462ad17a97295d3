// The account (balances, fee rates, stats), the connection and environments, and the desk's settings.
import type { StateCreator } from 'zustand';
import type { ConnectionStatus, EnvironmentsView, Settings, StoredKey, VenueStatus } from '../../src-shared/ipc/contract';
import type { Account } from '../../src-shared/protocol/records';
import type { DeskState } from './desk-store';

export interface AccountSlice {
  account?: Account;
  /** Why there is no account to show while connected (the desk's words), e.g. a key whose user id is unknown. */
  accountProblem?: string;
  connection?: ConnectionStatus;
  environments?: EnvironmentsView;
  venue?: VenueStatus;
  settings?: Settings;
  keys: StoredKey[];
  setAccount: (account: Account) => void;
  setAccountProblem: (problem: string) => void;
  setConnection: (connection: ConnectionStatus) => void;
  setEnvironments: (environments: EnvironmentsView) => void;
  setVenue: (venue: VenueStatus) => void;
  setSettings: (settings: Settings) => void;
  setKeys: (keys: StoredKey[]) => void;
}

export const createAccountSlice: StateCreator<DeskState, [], [], AccountSlice> = (set) => ({
  keys: [],
  setAccount: (account) => set({ account, accountProblem: undefined }),
  setAccountProblem: (accountProblem) => set({ accountProblem }),
  setConnection: (connection) => set({ connection }),
  setEnvironments: (environments) => set({ environments }),
  setVenue: (venue) => set({ venue }),
  setSettings: (settings) => set({ settings }),
  setKeys: (keys) => set({ keys }),
});

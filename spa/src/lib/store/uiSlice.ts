import { createSlice, type PayloadAction } from "@reduxjs/toolkit";

/** The login popup's three tabs. */
export type AuthTab = "login" | "forgot" | "register";

/**
 * The shell's message popups. `text` is already translated, or a
 * platform message shown as given; `variant` colours it; a message with `hideAfterMs` also
 * closes by itself (form B's outcome).
 */
export type Notice =
  | { kind: "sessionExpired" }
  | { kind: "message"; title?: string; text: string; variant: "success" | "error" | "info"; hideAfterMs?: number }
  | { kind: "notification"; title?: string; text: string; variant: "success" | "error" | "info" };

export interface UiState {
  auth: { open: boolean; tab: AuthTab };
  notice: Notice | null;
  sideMenuOpen: boolean;
}

const initialState: UiState = { auth: { open: false, tab: "login" }, notice: null, sideMenuOpen: false };

/** What the shell shows over the page: the login popup, a message popup, the mobile side menu. */
export const uiSlice = createSlice({
  name: "ui",
  initialState,
  reducers: {
    openAuth(state, action: PayloadAction<AuthTab | undefined>) {
      state.auth = { open: true, tab: action.payload ?? "login" };
      state.sideMenuOpen = false;
    },
    switchAuthTab(state, action: PayloadAction<AuthTab>) {
      state.auth.tab = action.payload;
    },
    closeAuth(state) {
      state.auth.open = false;
    },
    showNotice(state, action: PayloadAction<Notice>) {
      state.notice = action.payload;
    },
    closeNotice(state) {
      state.notice = null;
    },
    toggleSideMenu(state, action: PayloadAction<boolean | undefined>) {
      state.sideMenuOpen = action.payload ?? !state.sideMenuOpen;
    },
  },
  selectors: {
    selectAuth: (state) => state.auth,
    selectNotice: (state) => state.notice,
    selectSideMenuOpen: (state) => state.sideMenuOpen,
  },
});

export const { openAuth, switchAuthTab, closeAuth, showNotice, closeNotice, toggleSideMenu } = uiSlice.actions;
export const { selectAuth, selectNotice, selectSideMenuOpen } = uiSlice.selectors;

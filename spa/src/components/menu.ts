import type { ParseKeys } from "i18next";

import type { ProviderFlags } from "../lib/providers/flags";

export type ShellKey = ParseKeys<"shell">;

type Gate = keyof Omit<ProviderFlags, "loaded">;

export interface MenuEntry {
  /** The entry's header link id, where it has one: the CMS's link of that id names it and
   * says where it leads (`/capi/header-links`); `path` and `label` are the fallback. */
  id?: number;
  path: string;
  /** A path the CMS's url does not replace (the logged-out top menu's own paths). */
  fixedPath?: boolean;
  /** Key in the shell namespace. */
  label: ShellKey;
  testId?: string;
  /** The provider flag that must be on for the entry to show. */
  gate?: Gate;
}

/** The menus' header links by numeric id. */
export const HEADER_LINKS: Record<number, string> = {
  1: "/home",
  2: "/games/slots",
  3: "/games/sports",
  4: "/games/livedealer",
  5: "/games/horseracing",
  6: "/promotions",
  7: "/contactus",
  8: "/mybalance",
  14: "/poker",
  15: "/games/Blackjack",
  16: "/DropWin",
  17: "/spinwheel",
  18: "/blackjackleague",
  19: "/home",
  20: "/ReelD",
  21: "/",
  22: "/games/flywin",
  23: "/HolidayRush",
  33: "/takeMeFishin",
};

const link = (id: number, label: ShellKey, testId?: string, gate?: Gate): MenuEntry => ({
  id,
  path: HEADER_LINKS[id]!,
  label,
  testId,
  gate,
});

/** The top bar of a player: Home, Slots, Live Casino, Sports, Horses, (Events), Poker. */
export const TOP_BAR: MenuEntry[] = [
  link(1, "menu.home", "nav-home"),
  link(2, "menu.slots", "nav-slots"),
  link(4, "menu.liveCasino", "nav-livedealer", "liveCasino"),
  link(3, "menu.sports", "nav-sports", "sports"),
  link(5, "menu.horses", "nav-horseracing", "horses"),
];

const own = (entry: MenuEntry, path: string): MenuEntry => ({ ...entry, path, fixedPath: true });

/** The top bar of a visitor: "Top menu when logged out: /home, /slots, /sports, /horseracing,
 * /livedealer, /promotions, /contactus", with the Events dropdown and Poker between. */
export const VISITOR_TOP_BAR: MenuEntry[] = [
  own(link(1, "menu.home", "nav-home"), "/home"),
  own(link(2, "menu.slots", "nav-slots"), "/slots"),
  own(link(4, "menu.liveCasino", "nav-livedealer", "liveCasino"), "/livedealer"),
  own(link(3, "menu.sports", "nav-sports", "sports"), "/sports"),
  own(link(5, "menu.horses", "nav-horseracing", "horses"), "/horseracing"),
];

/** After the Events dropdown and Poker, the visitor's menu goes on to these two. */
export const VISITOR_TOP_BAR_END: MenuEntry[] = [
  own(link(6, "menu.promotions", "nav-promotions"), "/promotions"),
  own(link(7, "menu.contactUs", "nav-contactus"), "/contactus"),
];

/** The Events dropdown, with the Blackjack League ("other routes linked from header and side menu"). */
export const EVENTS_MENU: MenuEntry[] = [
  link(15, "menu.blackjackHeat", "nav-blackjack"),
  link(16, "menu.dropsAndWins", "nav-dropwin", "dropsAndWins"),
  link(18, "menu.blackjackLeague", "nav-blackjackleague", "blackjackLeague"),
];

export const POKER_ENTRY: MenuEntry = link(14, "menu.poker", "nav-poker", "poker");

/** The account dropdown and the side menu's My Profile submenu (logged in); Deposit and
 * Withdrawal show only while their flow is on (lib/access). */
export const ACCOUNT_MENU: MenuEntry[] = [
  { path: "/mybalance", label: "menu.myBalance", testId: "account-balance" },
  { path: "/profile", label: "menu.profile", testId: "account-profile" },
  { path: "/deposit", label: "menu.deposit", testId: "account-deposit" },
  { path: "/withdraw", label: "menu.withdrawal", testId: "account-withdraw" },
  { path: "/transactionhistory", label: "menu.transactionHistory", testId: "account-transactions" },
  { path: "/casinogamehistory", label: "menu.gameHistory", testId: "account-gamehistory" },
];

/** The side menu under 991px (ids 2, 3, 4, 5, 6, 7, 14, 15, 16, 19). */
export const SIDE_MENU: MenuEntry[] = [
  link(19, "menu.home", "side-home"),
  link(2, "menu.slots", "side-slots"),
  link(4, "menu.liveCasino", "side-livedealer", "liveCasino"),
  link(3, "menu.sports", "side-sports", "sports"),
  link(5, "menu.horses", "side-horseracing", "horses"),
  link(16, "menu.dropsAndWins", "side-dropwin", "dropsAndWins"),
  link(15, "menu.blackjackHeat", "side-blackjack"),
  link(18, "menu.blackjackLeague", "side-blackjackleague", "blackjackLeague"),
  link(14, "menu.poker", "side-poker", "poker"),
  link(6, "menu.promotions", "side-promotions"),
  { path: "/contactus#faq", label: "menu.faq", testId: "side-faq" },
  link(7, "menu.contactUs", "side-contactus"),
];

export function visible<T extends MenuEntry>(entries: T[], flags: ProviderFlags): T[] {
  return entries.filter((entry) => !entry.gate || flags[entry.gate]);
}

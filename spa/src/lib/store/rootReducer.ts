import { combineSlices } from "@reduxjs/toolkit";

import { api } from "../../api/baseApi";
import { uiSlice } from "./uiSlice";

/**
 * The slices a feature adds with `slice.injectInto(rootReducer)`, each declared by its feature
 * (`declare module` on this file), so shared code never names a feature.
 */
export interface LazyLoadedSlices {}

/** The shared state every screen may read: the API cache and the shell's popups and menus. */
export const rootReducer = combineSlices(api, uiSlice).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;

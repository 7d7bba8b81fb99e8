import enCommon from "../locales/en/common.json";
import esCommon from "../locales/es/common.json";
import ptCommon from "../locales/pt/common.json";

export const defaultNS = "common";

export const resources = {
  es: { common: esCommon },
  pt: { common: ptCommon },
  en: { common: enCommon },
} as const;

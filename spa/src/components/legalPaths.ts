/** The legal pages stay readable during a maintenance (they need no platform call). */
export const LEGAL_PATHS = ["/termsandconditions", "/privacypolicy", "/resposiblegaming", "/taxation"];

import type { RegisterRequest } from "../../api/contracts.gen";
import { referralFields } from "./referral";

/** The province is always LA RIOJA. */
export const PROVINCE = "LA RIOJA";

/** What the player typed into the registration form (acceptTerms stays in the form). */
export interface RegisterFields {
  login: string;
  password: string;
  email: string;
  firstName: string;
  lastName: string;
  ssn: string;
  address: string;
  phone: string;
  promocode: string;
}

/** `{ [name]: value }` when the player typed something, else nothing: an optional field left
 * empty is not sent as "". */
function typed<K extends string>(name: K, value: string): Partial<Record<K, string>> {
  const text = value.trim();
  return text ? ({ [name]: text } as Record<K, string>) : {};
}

/** The registration payload: nickname from the login, firstName the one typed or else the
 * login, the e-mail lower-cased, state LA RIOJA; optional fields only when given. */
export function registerPayload(fields: RegisterFields, storage: Storage = localStorage): RegisterRequest {
  return {
    login: fields.login,
    nickname: fields.login,
    firstName: fields.firstName.trim() || fields.login,
    ...typed("lastName", fields.lastName),
    email: fields.email.trim().toLowerCase(),
    password: fields.password,
    ...typed("ssn", fields.ssn),
    ...referralFields(storage),
    address: { address: fields.address.trim(), phone: fields.phone.trim(), state: PROVINCE },
    ...typed("promocode", fields.promocode),
  };
}

import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import type {
  AffiliateHitRequest,
  ForgotPasswordRequest,
  LoginResponse,
  PlatformReply,
  RegisterRequest,
  RegisterResponse,
} from "../../api/contracts.gen";
import { PLAYER_TAGS } from "../../lib/session/sessionApi";

/** The sign-in form: `rememberMe` is the BFF's (a persistent session cookie), never the platform's. */
export interface SignIn {
  login: string;
  password: string;
  rememberMe: boolean;
}

/** Refetch who is logged in and everything of the player's once a login or sign-up succeeded. */
const afterSignIn = (result: { success?: boolean } | undefined) => (result?.success ? [...PLAYER_TAGS] : []);

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, SignIn>({
      query: (body) => ({ url: pathOf("login"), method: "POST", body }),
      invalidatesTags: afterSignIn,
    }),
    register: build.mutation<RegisterResponse, RegisterRequest>({
      query: (body) => ({ url: pathOf("register"), method: "POST", body }),
      invalidatesTags: afterSignIn,
    }),
    forgotPassword: build.mutation<PlatformReply, ForgotPasswordRequest>({
      query: (body) => ({ url: pathOf("forgotPassword"), method: "POST", body }),
    }),
    verifyAccount: build.mutation<PlatformReply, { token: string; face: string }>({
      query: (body) => ({ url: pathOf("verifyAccount"), method: "POST", body }),
    }),
    affiliateHit: build.mutation<PlatformReply, AffiliateHitRequest>({
      query: (body) => ({ url: pathOf("affiliateHit"), method: "POST", body }),
    }),
    adoptSession: build.mutation<{ loggedIn: boolean; login: string | null }, { sid: string }>({
      query: (body) => ({ url: "/bff/session/adopt", method: "POST", body }),
      invalidatesTags: [...PLAYER_TAGS],
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useForgotPasswordMutation,
  useVerifyAccountMutation,
  useAffiliateHitMutation,
  useAdoptSessionMutation,
} = authApi;

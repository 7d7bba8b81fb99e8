"""The operators' accounts, under the console and the bundle of parts: who the operators are
(`operators`: the operators file, argon2id), what each role may do (`roles`: the guard every
admin route goes through), their console sessions and sign-in (`signin`, with its limits), and
the audit trail of what they did (`audit`: a Redis stream or a JSON-lines file)."""

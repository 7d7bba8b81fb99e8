"""The operators' side of the admin listener: who they are (the operators file), what each role
may do (the guard), their console sessions, and the audit trail of what they did."""

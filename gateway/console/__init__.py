"""The operators' side of the admin listener: who they are (the operators file), what each role
may do (the guard), their console sessions, the audit trail of what they did, the changes they
make (previewed, versioned, confirmed on every instance) and the console's page."""

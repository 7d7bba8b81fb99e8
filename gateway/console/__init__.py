"""The admin listener (`admin`: every route and the role it needs) and the operators' side of it:
who they are (the operators file), what each role may do (the guard), their console sessions,
and the audit trail of what they did; what the console shows (the overview, its charts, the
instances) and changes (previewed, versioned upstream changes, their history and rollback,
purge and revoke); and the console's page."""

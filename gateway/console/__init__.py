"""The operators' console on the admin listener: its accounts, changes, audit trail and pages."""

"""The admin listener (`admin`: every route and the role it needs) and what the operators' console
does there, for the accounts of `gateway.accounts`: what it shows (`overview`: skins, upstreams'
health and breakers, charts, instances) and changes (`changes`: previewed, versioned upstream
changes; `history`: versions and rollback; purge and revoke), the audit trail's API (`trail`),
the operators' command line (`cli`) and the console's page (`pages`)."""

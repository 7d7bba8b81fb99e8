"""What operators plan ahead, in the console: maintenance windows, scheduled changes and approvals
(the records: `gateway.maintenance`). `intake` keeps a change for later (a time, or a second
operator), `running` runs one the way an immediate change goes, `runner` runs them when due on one
instance of the cluster, `routes` is their admin API."""

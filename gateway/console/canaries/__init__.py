"""Canary changes in the admin API (`start`: start and read; `actions`: pause, resume, promote
now, abort) and what the controller does through the gateway (`effects`)."""

from gateway.console.canaries import actions, start

route_handlers = [*start.route_handlers, *actions.route_handlers]

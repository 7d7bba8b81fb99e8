"""The balance stream (`GET /bff/events`): one platform balance poll per player, pushed to every
tab the player has open (`gateway.balance.feed`)."""

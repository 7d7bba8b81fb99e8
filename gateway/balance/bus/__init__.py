"""The balance stream's bus: how a player's notes reach every instance with a tab of that player."""

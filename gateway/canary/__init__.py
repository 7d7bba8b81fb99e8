"""Canary upstream changes: a skin's new upstream proven on a share of its players first, judged on
its own figures against the old one, promoted or rolled back by one controller in the cluster."""

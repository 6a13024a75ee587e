"""Adapters to the ecosystem's interfaces: OpenSpiel (threes.openspiel),
PettingZoo (threes.pettingzoo) and Gymnasium (threes.gym). Each is imported
only on request, since each needs its optional dependency."""

"""The parts dealers copy from a vehicle's catalog: the copy log and its most copied codes."""

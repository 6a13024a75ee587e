MAX_THREADS: int
ISMCTS_NODE_BYTES: int

def batch_seed(seed: int, i: int) -> int: ...

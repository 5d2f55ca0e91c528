"""What fixes a failure of a known class, where the class itself says it: one sentence per signature.

explain and resolve add it to a failure of that signature. Only classes whose fix does not depend on the
configuration belong here: a failure that follows a setting is answered by resolve's configuration.
"""

from __future__ import annotations

from crashmatrix.verdict.ranks import RANK_ENDED_EARLY

# signature -> what fixes it, as a user would act on it
REMEDIES = {
    RANK_ENDED_EARLY: (
        "every rank the same number of batches: a DistributedSampler (it pads every rank to the same count; "
        "DistributedSampler(dataset, drop_last=True) drops the tail instead) rather than a shard of your own, "
        "no rank-dependent break or return; or, for inputs that must stay uneven, the training loop inside "
        "`with torch.distributed.algorithms.Join([model]):`"
    ),
}


def remedy(signature: str) -> str:
    """What fixes a failure of this signature, or "" where the class does not say."""
    return REMEDIES.get(signature, "")

"""Audio framing pads each clip by half the window on both sides with reflect padding (as centred STFT frames
do); one clip in the list is shorter than half the window."""

import torch
import torch.nn.functional as F

WINDOW = 400


def frames(clip: torch.Tensor) -> torch.Tensor:
    padded = F.pad(clip[None, None], (WINDOW // 2, WINDOW // 2), mode="reflect")[0, 0]
    return padded.unfold(0, WINDOW, WINDOW // 4)


def main() -> None:
    torch.manual_seed(0)
    clips = [torch.randn(16000), torch.randn(8000), torch.randn(160)]
    for i, clip in enumerate(clips):
        print(f"clip {i}: {tuple(frames(clip).shape)} frames")

"""Train a small classifier briefly, then evaluate, predict or serve it: `python train.py --case NAME`."""

import argparse

import torch
from evalkit.loop import check_deterministic, evaluate, predict_to_frame, train_briefly
from evalkit.model import Classifier, PromptTuned, cached_features
from evalkit.serve import Server

CASES = ["iv_dropout_check", "iv_argmax_dim", "iv_cached_param", "iv_predict_drop_last", "iv_serve_labels"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", choices=CASES, required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = Classifier()
    train_briefly(model)
    print(f"trained; case {args.case}", flush=True)
    x, y = torch.randn(50, 16), torch.randint(0, 10, (50,))
    if args.case == "iv_dropout_check":
        check_deterministic(model, x)  # still in training mode: dropout on
    elif args.case == "iv_argmax_dim":
        print(f"accuracy {evaluate(model, x, y, dim=0):.3f}")
    elif args.case == "iv_cached_param":
        start = cached_features(model.body[0], 50)
        tuned = PromptTuned(start)
        print(f"tuning {sum(p.numel() for p in tuned.parameters())} parameters")
    elif args.case == "iv_predict_drop_last":
        frame = predict_to_frame(model, x, drop_last=True)
        frame.to_csv("/dev/null", index=False)
    elif args.case == "iv_serve_labels":
        server = Server(model)
        futures = [server.submit(torch.randn(8, 16)) for _ in range(4)]
        for fut in futures:
            print(fut.result())


if __name__ == "__main__":
    main()

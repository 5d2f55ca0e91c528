"""Where an exception came from: exception_place over tracebacks real programs printed.

Every text below is a real program's stderr, pasted as it came (paths under this checkout written <ROOT>):
- tests/apps/raising_app/train.py, one `mode=` each (its docstring holds each mode's truth), run alone on this
  CPU box (torch 2.13, Python 3.11);
- tests/apps/ddp_train.py fault=raise:1 under `torchrun --nproc_per_node=2` and under mp.spawn
  (`launcher=spawn`): rank 1 raises `ValueError: bad batch on rank 1` at ddp_train.py:46 in train; rank 0
  then fails in gloo's `Connection closed by peer` (a victim), and the launcher raises ChildFailedError
  (torchrun) or ProcessRaisedException (spawn) from its own code, which is never the place;
- the fault probe on an NVIDIA H200 (torch 2.11, ../shared/gpu-runs/h200-faults/cells/*/stderr.log and
  sync/stderr.log): cuda_oom and cuda_fork_worker, whose rows had an empty `where`, and the synchronous
  reruns of the CUDA errors;
- the fault probe's memory, nan and segv modes from `crashmatrix run matrix/selftest.yaml` on this CPU box
  (its run folder written /tmp/selftest/run). H200_INDEX_FORWARD_SYNC keeps the first two and the last of its 64 identical
  assertion lines (one per GPU thread), PROBE_SEGV its `Extension modules:` line; trailing blanks
  are trimmed; nothing else left out.
"""

import os

import pytest
from conftest import ROOT

from crashmatrix.verdict import forensics, ranks
from crashmatrix.verdict.classify import classify, signed_by_place
from crashmatrix.verdict.exception_place import exception_place, launch_place

OWN_RAISE = """\
Traceback (most recent call last):
  File "<ROOT>/tests/apps/raising_app/train.py", line 100, in <module>
    main(dict(a.split("=", 1) for a in sys.argv[1:])["mode"])
  File "<ROOT>/tests/apps/raising_app/train.py", line 79, in main
    reader.check_label(-1)
  File "<ROOT>/tests/apps/raising_app/app/data/reader.py", line 18, in check_label
    raise ValueError(f"label {label} is negative")
ValueError: label -1 is negative
"""

JSON = """\
Traceback (most recent call last):
  File "<ROOT>/tests/apps/raising_app/train.py", line 100, in <module>
    main(dict(a.split("=", 1) for a in sys.argv[1:])["mode"])
  File "<ROOT>/tests/apps/raising_app/train.py", line 81, in main
    reader.parse_label('{"label": 3,')
  File "<ROOT>/tests/apps/raising_app/app/data/reader.py", line 7, in parse_label
    return json.loads(text)["label"]
           ^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py", line 337, in decode
    obj, end = self.raw_decode(s, idx=_w(s, 0).end())
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py", line 353, in raw_decode
    obj, end = self.scan_once(s, idx)
               ^^^^^^^^^^^^^^^^^^^^^^
json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 13 (char 12)
"""

PIL = """\
Traceback (most recent call last):
  File "<ROOT>/tests/apps/raising_app/train.py", line 100, in <module>
    main(dict(a.split("=", 1) for a in sys.argv[1:])["mode"])
  File "<ROOT>/tests/apps/raising_app/train.py", line 83, in main
    reader.open_image(os.path.join(HERE, "data", "broken.png"))
  File "<ROOT>/tests/apps/raising_app/app/data/reader.py", line 13, in open_image
    return Image.open(path)
           ^^^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/PIL/Image.py", line 3730, in open
    raise UnidentifiedImageError(msg)
PIL.UnidentifiedImageError: cannot identify image file '<ROOT>/tests/apps/raising_app/data/broken.png'
"""

MEMORY = """\
Traceback (most recent call last):
  File "<ROOT>/tests/apps/raising_app/train.py", line 100, in <module>
    main(dict(a.split("=", 1) for a in sys.argv[1:])["mode"])
  File "<ROOT>/tests/apps/raising_app/train.py", line 85, in main
    allocate()
  File "<ROOT>/tests/apps/raising_app/train.py", line 36, in allocate
    return bytearray(1 << 60)  # past any address space: fails whatever the overcommit policy
           ^^^^^^^^^^^^^^^^^^
MemoryError
"""

TORCH_ALLOC = """\
Traceback (most recent call last):
  File "<ROOT>/tests/apps/raising_app/train.py", line 100, in <module>
    main(dict(a.split("=", 1) for a in sys.argv[1:])["mode"])
  File "<ROOT>/tests/apps/raising_app/train.py", line 87, in main
    allocate_tensor()
  File "<ROOT>/tests/apps/raising_app/train.py", line 42, in allocate_tensor
    return torch.empty(1 << 60, dtype=torch.uint8)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 1152921504606846976 bytes. Error code 12 (Cannot allocate memory)
"""

IGNORED = """\
Traceback (most recent call last):
  File "<ROOT>/tests/apps/raising_app/train.py", line 100, in <module>
    main(dict(a.split("=", 1) for a in sys.argv[1:])["mode"])
  File "<ROOT>/tests/apps/raising_app/train.py", line 94, in main
    reader.check_label(-3)
  File "<ROOT>/tests/apps/raising_app/app/data/reader.py", line 18, in check_label
    raise ValueError(f"label {label} is negative")
ValueError: label -3 is negative
Exception ignored in: <function Cache.__del__ at 0x7fac641072e0>
Traceback (most recent call last):
  File "<ROOT>/tests/apps/raising_app/train.py", line 73, in __del__
AttributeError: 'Cache' object has no attribute 'handle'
"""

WORKER = """\
Traceback (most recent call last):
  File "<ROOT>/tests/apps/raising_app/train.py", line 100, in <module>
    main(dict(a.split("=", 1) for a in sys.argv[1:])["mode"])
  File "<ROOT>/tests/apps/raising_app/train.py", line 89, in main
    load_in_worker()
  File "<ROOT>/tests/apps/raising_app/train.py", line 56, in load_in_worker
    for batch in DataLoader(Labels(), batch_size=1, num_workers=1):
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 725, in __next__
    data = self._next_data()
           ^^^^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1529, in _next_data
    return self._process_data(data, worker_id)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1567, in _process_data
    data.reraise()
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/_utils.py", line 794, in reraise
    raise exception
ValueError: Caught ValueError in DataLoader worker process 0.
Original Traceback (most recent call last):
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/utils/data/_utils/worker.py", line 374, in _worker_loop
    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]
           ^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/utils/data/_utils/fetch.py", line 54, in fetch
    data = [self.dataset[idx] for idx in possibly_batched_index]
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/utils/data/_utils/fetch.py", line 54, in <listcomp>
    data = [self.dataset[idx] for idx in possibly_batched_index]
            ~~~~~~~~~~~~^^^^^
  File "<ROOT>/tests/apps/raising_app/train.py", line 50, in __getitem__
    return reader.check_label(i - 2)
           ^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/tests/apps/raising_app/app/data/reader.py", line 18, in check_label
    raise ValueError(f"label {label} is negative")
ValueError: label -2 is negative

"""

CHAINED = """\
Traceback (most recent call last):
  File "<ROOT>/tests/apps/raising_app/app/data/reader.py", line 24, in load_config
    with open(path) as f:
         ^^^^^^^^^^
FileNotFoundError: [Errno 2] No such file or directory: '<ROOT>/tests/apps/raising_app/no-such.yaml'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "<ROOT>/tests/apps/raising_app/train.py", line 100, in <module>
    main(dict(a.split("=", 1) for a in sys.argv[1:])["mode"])
  File "<ROOT>/tests/apps/raising_app/train.py", line 96, in main
    reader.load_config(os.path.join(HERE, "no-such.yaml"))
  File "<ROOT>/tests/apps/raising_app/app/data/reader.py", line 27, in load_config
    raise RuntimeError(f"no config at {path}") from e
RuntimeError: no config at <ROOT>/tests/apps/raising_app/no-such.yaml
"""

EMBEDDING = """\
Traceback (most recent call last):
  File "<ROOT>/tests/apps/raising_app/train.py", line 100, in <module>
    main(dict(a.split("=", 1) for a in sys.argv[1:])["mode"])
  File "<ROOT>/tests/apps/raising_app/train.py", line 91, in main
    embed()
  File "<ROOT>/tests/apps/raising_app/train.py", line 66, in embed
    return model(torch.tensor([3, 99]))  # a token id past the vocabulary
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1778, in _wrapped_call_impl
    return self._call_impl(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1789, in _call_impl
    return forward_call(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/tests/apps/raising_app/vendor/site-packages/tinybert/__init__.py", line 13, in forward
    return self.word_embeddings(ids)
           ^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1778, in _wrapped_call_impl
    return self._call_impl(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1789, in _call_impl
    return forward_call(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/nn/modules/sparse.py", line 189, in forward
    return F.embedding(
           ^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/nn/functional.py", line 2615, in embedding
    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
IndexError: index out of range in self
"""

TORCHRUN = """\
W1127 07:16:59.993000 11707 torch/distributed/run.py:874]
W1127 07:16:59.993000 11707 torch/distributed/run.py:874] *****************************************
W1127 07:16:59.993000 11707 torch/distributed/run.py:874] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed.
W1127 07:16:59.993000 11707 torch/distributed/run.py:874] *****************************************
[rank1]: Traceback (most recent call last):
[rank1]:   File "<ROOT>/tests/apps/ddp_train.py", line 80, in <module>
[rank1]:     main()
[rank1]:   File "<ROOT>/tests/apps/ddp_train.py", line 76, in main
[rank1]:     train(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), fault)
[rank1]:   File "<ROOT>/tests/apps/ddp_train.py", line 46, in train
[rank1]:     raise ValueError(f"bad batch on rank {rank}")
[rank1]: ValueError: bad batch on rank 1
[rank0]: Traceback (most recent call last):
[rank0]:   File "<ROOT>/tests/apps/ddp_train.py", line 80, in <module>
[rank0]:     main()
[rank0]:   File "<ROOT>/tests/apps/ddp_train.py", line 76, in main
[rank0]:     train(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), fault)
[rank0]:   File "<ROOT>/tests/apps/ddp_train.py", line 49, in train
[rank0]:     loss = torch.nn.functional.mse_loss(model(x), y)
[rank0]:                                         ^^^^^^^^
[rank0]:   File "<ROOT>/.venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1778, in _wrapped_call_impl
[rank0]:     return self._call_impl(*args, **kwargs)
[rank0]:            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank0]:   File "<ROOT>/.venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1789, in _call_impl
[rank0]:     return forward_call(*args, **kwargs)
[rank0]:            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank0]:   File "<ROOT>/.venv/lib/python3.11/site-packages/torch/nn/parallel/distributed.py", line 1886, in forward
[rank0]:     inputs, kwargs = self._pre_forward(*inputs, **kwargs)
[rank0]:                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank0]:   File "<ROOT>/.venv/lib/python3.11/site-packages/torch/nn/parallel/distributed.py", line 1775, in _pre_forward
[rank0]:     if torch.is_grad_enabled() and self.reducer._rebuild_buckets():
[rank0]:                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:38593. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️
W1127 07:17:16.024000 11707 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 11863 closing signal SIGTERM
E1127 07:17:16.209000 11707 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) local_rank: 1 (pid: 11867) of binary: <ROOT>/.venv/bin/python
Traceback (most recent call last):
  File "<ROOT>/.venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
             ^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 367, in wrapper
    return f(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/distributed/run.py", line 1028, in main
    run(args)
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/distributed/run.py", line 1019, in run
    elastic_launch(
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 194, in __call__
    return launch_agent(
           ^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 383, in launch_agent
    raise ChildFailedError(
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
<ROOT>/tests/apps/ddp_train.py FAILED
------------------------------------------------------------
Failures:
[1]:
  time      : 2026-11-27_07:17:16
  host      : localhost
  rank      : 0 (local_rank: 0)
  exitcode  : -15 (pid: 11863)  (SIGTERM)
  error_file: <N/A>
  traceback : Signal 15 (SIGTERM) received by PID 11863
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-11-27_07:17:16
  host      : localhost
  rank      : 1 (local_rank: 1)
  exitcode  : 1 (pid: 11867)
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
============================================================
"""

SPAWN = """\
W1127 07:21:39.249000 15957 torch/multiprocessing/spawn.py:165] Terminating process 16006 via signal SIGTERM
Traceback (most recent call last):
  File "<ROOT>/tests/apps/ddp_train.py", line 80, in <module>
    main()
  File "<ROOT>/tests/apps/ddp_train.py", line 74, in main
    mp.spawn(spawned, args=(2, fault), nprocs=2)
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 340, in spawn
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 296, in start_processes
    while not context.join():
              ^^^^^^^^^^^^^^
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 211, in join
    raise ProcessRaisedException(msg, error_index, failed_process.pid)
torch.multiprocessing.spawn.ProcessRaisedException:

-- Process 1 terminated with the following error:
Traceback (most recent call last):
  File "<ROOT>/.venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 87, in _wrap
    fn(i, *args)
  File "<ROOT>/tests/apps/ddp_train.py", line 60, in spawned
    train(rank, world_size, fault)
  File "<ROOT>/tests/apps/ddp_train.py", line 46, in train
    raise ValueError(f"bad batch on rank {rank}")
ValueError: bad batch on rank 1

"""

H200_CUDA_OOM = """\
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "<frozen runpy>", line 88, in _run_code
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 57, in <module>
    sys.exit(main())
             ^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 46, in main
    return run(spec)
           ^^^^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 28, in run
    metrics = probes.load(spec["probe"]).main(params) or {}
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 246, in main
    _cuda_fault(mode)
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 102, in _cuda_fault
    torch.empty(1 << 50, dtype=torch.uint8, device="cuda")  # a petabyte: torch.OutOfMemoryError
    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1048576.00 GiB. GPU 0 has a total capacity of 139.80 GiB of which 137.72 GiB is free. Process 459 has 522.00 MiB memory in use. Process 462 has 522.00 MiB memory in use. Process 458 has 522.00 MiB memory in use. Including non-PyTorch memory, this process has 518.00 MiB memory in use. Process 456 has 14.00 MiB memory in use. Of the allocated memory 0 bytes is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)
"""

H200_CUDA_FORK_WORKER = """\
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "<frozen runpy>", line 88, in _run_code
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 57, in <module>
    sys.exit(main())
             ^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 46, in main
    return run(spec)
           ^^^^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 28, in run
    metrics = probes.load(spec["probe"]).main(params) or {}
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 246, in main
    _cuda_fault(mode)
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 104, in _cuda_fault
    _cuda_in_forked_worker()
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 176, in _cuda_in_forked_worker
    for _batch in DataLoader(OnDevice(), batch_size=1, num_workers=1, multiprocessing_context=ctx):
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/dataloader.py", line 741, in __next__
    data = self._next_data()
           ^^^^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/dataloader.py", line 1548, in _next_data
    return self._process_data(data, worker_id)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/dataloader.py", line 1586, in _process_data
    data.reraise()
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/_utils.py", line 785, in reraise
    raise exception
RuntimeError: Caught RuntimeError in DataLoader worker process 0.
Original Traceback (most recent call last):
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/_utils/worker.py", line 358, in _worker_loop
    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]
           ^^^^^^^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/_utils/fetch.py", line 54, in fetch
    data = [self.dataset[idx] for idx in possibly_batched_index]
            ~~~~~~~~~~~~^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 172, in __getitem__
    return torch.ones(2, device="cuda").cpu()
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/cuda/__init__.py", line 466, in _lazy_init
    raise RuntimeError(
RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method

"""

H200_LOSS_ASSERT_SYNC = """\
/pytorch/aten/src/ATen/native/cuda/Loss.cu:245: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [7,0,0] Assertion `t >= 0 && t < n_classes` failed.
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "<frozen runpy>", line 88, in _run_code
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 57, in <module>
    sys.exit(main())
             ^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 46, in main
    return run(spec)
           ^^^^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 28, in run
    metrics = probes.load(spec["probe"]).main(params) or {}
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 246, in main
    _cuda_fault(mode)
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 98, in _cuda_fault
    _bad_target_in_loss(torch)
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 126, in _bad_target_in_loss
    loss = torch.nn.functional.cross_entropy(logits, target)  # the launch that fails
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/functional.py", line 3504, in cross_entropy
    return torch._C._nn.cross_entropy_loss(
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
torch.AcceleratorError: CUDA error: device-side assert triggered
Search for `cudaErrorAssert' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.

"""

H200_INDEX_FORWARD_SYNC = """\
/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1515: indexSelectSmallIndex: block: [0,0,0], thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.
/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1515: indexSelectSmallIndex: block: [0,0,0], thread: [1,0,0] Assertion `srcIndex < srcSelectDimSize` failed.
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "<frozen runpy>", line 88, in _run_code
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 57, in <module>
    sys.exit(main())
             ^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 46, in main
    return run(spec)
           ^^^^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 28, in run
    metrics = probes.load(spec["probe"]).main(params) or {}
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 246, in main
    _cuda_fault(mode)
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 96, in _cuda_fault
    _index_in_forward_seen_at_backward(torch)
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 116, in _index_in_forward_seen_at_backward
    picked = weight.index_select(0, rows)  # the launch that fails
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
torch.AcceleratorError: CUDA error: device-side assert triggered
Search for `cudaErrorAssert' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.

"""

H200_ASSERT_SYNC = """\
/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:111: operator(): block: [0,0,0], thread: [0,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "<frozen runpy>", line 88, in _run_code
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 57, in <module>
    sys.exit(main())
             ^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 46, in main
    return run(spec)
           ^^^^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 28, in run
    metrics = probes.load(spec["probe"]).main(params) or {}
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 246, in main
    _cuda_fault(mode)
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 93, in _cuda_fault
    x[torch.tensor([1 << 20], device="cuda")] = 1.0
    ~^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
torch.AcceleratorError: CUDA error: device-side assert triggered
Search for `cudaErrorAssert' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.

"""

H200_NCCL_SYNC_RANK = """\
[rank1]:[W1127 06:30:41.745160913 ProcessGroupNCCL.cpp:1575] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources. For more info, please see https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())
[rank0]:[W1127 06:30:41.776243084 ProcessGroupNCCL.cpp:1575] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources. For more info, please see https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())
W1127 06:30:41.947000 704 torch/multiprocessing/spawn.py:165] Terminating process 725 via signal SIGTERM
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "<frozen runpy>", line 88, in _run_code
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 57, in <module>
    sys.exit(main())
             ^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 46, in main
    return run(spec)
           ^^^^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/child.py", line 28, in run
    metrics = probes.load(spec["probe"]).main(params) or {}
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 246, in main
    _cuda_fault(mode)
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 100, in _cuda_fault
    _two_nccl_ranks_on_one_gpu()
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 141, in _two_nccl_ranks_on_one_gpu
    mp.spawn(_nccl_rank_on_gpu0, args=(2, port), nprocs=2, join=True)
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/multiprocessing/spawn.py", line 340, in spawn
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/multiprocessing/spawn.py", line 296, in start_processes
    while not context.join():
              ^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/multiprocessing/spawn.py", line 211, in join
    raise ProcessRaisedException(msg, error_index, failed_process.pid)
torch.multiprocessing.spawn.ProcessRaisedException:

-- Process 1 terminated with the following error:
Traceback (most recent call last):
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/multiprocessing/spawn.py", line 87, in _wrap
    fn(i, *args)
  File "/home/user/runs/h200-faults/.crashmatrix-path/crashmatrix/probes/fault.py", line 155, in _nccl_rank_on_gpu0
    dist.all_reduce(total)  # NCCL's communicator is made here, and refuses the second rank on GPU 0
    ^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/c10d_logger.py", line 83, in wrapper
    return func(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/distributed_c10d.py", line 3068, in all_reduce
    work = group.allreduce([tensor], opts)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.28.9
ncclInvalidUsage: This usually reflects invalid usage of NCCL library.
Last error:
Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 60

"""

# The fault probe's own modes (matrix/selftest.yaml) on this CPU box: the probe runs from this checkout, its
# child from the cell's copy of the package (.crashmatrix-path), whose frames are never the place.
PROBE_MEMORY = """\
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "<frozen runpy>", line 88, in _run_code
  File "/tmp/selftest/run/.crashmatrix-path/crashmatrix/child.py", line 59, in <module>
    sys.exit(main())
             ^^^^^^
  File "/tmp/selftest/run/.crashmatrix-path/crashmatrix/child.py", line 48, in main
    return run(spec)
           ^^^^^^^^^
  File "/tmp/selftest/run/.crashmatrix-path/crashmatrix/child.py", line 29, in run
    metrics = probes.load(spec["probe"]).main(params) or {}
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/probes/fault.py", line 240, in main
    block = bytearray(int(params.get("alloc_mb", 4096)) * 1024 * 1024)
            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
MemoryError
"""

PROBE_NAN = """\
Traceback (most recent call last):
  File "/tmp/selftest/run/.crashmatrix-path/crashmatrix/child.py", line 29, in run
    metrics = probes.load(spec["probe"]).main(params) or {}
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<ROOT>/probes/fault.py", line 225, in main
    _end_if_asked(mode)
  File "<ROOT>/probes/fault.py", line 211, in _end_if_asked
    raise probes.NonFinite("loss is nan at step 0 (fault probe)")
crashmatrix.probes.NonFinite: loss is nan at step 0 (fault probe)
crashmatrix: non-finite: loss is nan at step 0 (fault probe)
"""

PROBE_SEGV = """\
Fatal Python error: Segmentation fault

Current thread 0x00007f0e9fc9cb80 (most recent call first):
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/ctypes/__init__.py", line 519 in string_at
  File "<ROOT>/probes/fault.py", line 62 in _real_segv
  File "<ROOT>/probes/fault.py", line 190 in _end_if_asked
  File "<ROOT>/probes/fault.py", line 225 in main
  File "/tmp/selftest/run/.crashmatrix-path/crashmatrix/child.py", line 29 in run
  File "/tmp/selftest/run/.crashmatrix-path/crashmatrix/child.py", line 48 in main
  File "/tmp/selftest/run/.crashmatrix-path/crashmatrix/child.py", line 59 in <module>
  File "<frozen runpy>", line 88 in _run_code
  File "<frozen runpy>", line 198 in _run_module_as_main
"""


def _real(text: str) -> str:
    return text.replace("<ROOT>", ROOT)


@pytest.mark.parametrize(
    "text, where",
    [
        (OWN_RAISE, "app/data/reader.py:18 in check_label"),
        (JSON, "json/decoder.py:353 in raw_decode; app/data/reader.py:7 in parse_label"),
        (PIL, "PIL/Image.py:3730 in open; app/data/reader.py:13 in open_image"),
        (WORKER, "app/data/reader.py:18 in check_label"),
        (CHAINED, "app/data/reader.py:27 in load_config"),
        (IGNORED, "app/data/reader.py:18 in check_label"),  # not the __del__ Python ignored at exit
        (EMBEDDING, "torch/nn/functional.py:2615 in embedding; train.py:66 in embed"),
        (H200_CUDA_FORK_WORKER, "torch/cuda/__init__.py:466 in _lazy_init; probes/fault.py:172 in __getitem__"),
        (PROBE_NAN, "probes/fault.py:211 in _end_if_asked"),
    ],
    ids=["own_raise", "json", "pil", "worker", "chained", "ignored", "embedding", "h200_cuda_fork_worker", "probe_nan"],
)
def test_an_exception_is_placed_at_the_raising_frame_then_the_programs_caller(text, where):
    assert exception_place(_real(text)) == where


@pytest.mark.parametrize(
    "text, where",
    [
        (MEMORY, "train.py:36 in allocate"),  # a builtin's MemoryError: the line, no call before it
        (TORCH_ALLOC, "empty; train.py:42 in allocate_tensor"),
        (H200_CUDA_OOM, "empty; probes/fault.py:102 in _cuda_fault"),
        (PROBE_MEMORY, "probes/fault.py:240 in main"),
    ],
    ids=["memory_error", "cpu_allocator", "h200_cuda_oom", "probe_memory"],
)
def test_out_of_memory_is_placed_at_the_allocating_op_and_line(text, where):
    assert exception_place(_real(text), oom=True) == where
    assert exception_place(_real(text)) == where  # the exception's own words say so too


@pytest.mark.parametrize(
    "text, where",
    [
        (EMBEDDING, "embedding; tinybert/__init__.py:13 in forward; train.py:66 in embed"),
        (H200_LOSS_ASSERT_SYNC, "cross_entropy; probes/fault.py:126 in _bad_target_in_loss"),
        (H200_INDEX_FORWARD_SYNC, "index_select; probes/fault.py:116 in _index_in_forward_seen_at_backward"),
        (H200_ASSERT_SYNC, "index assignment; probes/fault.py:93 in _cuda_fault"),
        (H200_NCCL_SYNC_RANK, "all_reduce; probes/fault.py:155 in _nccl_rank_on_gpu0"),
    ],
    ids=["embedding_in_a_library", "h200_loss_assert", "h200_index_forward", "h200_assert", "h200_nccl"],
)
def test_a_launch_names_the_op_then_a_library_frame_then_the_programs_line(text, where):
    assert launch_place(_real(text)) == where


@pytest.mark.parametrize("text", [TORCHRUN, SPAWN], ids=["torchrun", "spawn"])
def test_a_ranks_exception_is_placed_from_its_own_traceback_never_the_launchers(text):
    root = ranks.root_failure(_real(text))
    assert root is not None and root.rank == 1
    assert exception_place(root.text) == "tests/apps/ddp_train.py:46 in train"
    # the launcher's own traceback, printed last, would name torch's launcher: that is why the rank's is read
    assert "launcher/api.py" in exception_place(_real(TORCHRUN))


def test_no_traceback_no_place():
    assert exception_place("exit status 3\n") == ""
    assert launch_place("") == ""


@pytest.mark.slow
def test_an_exceptions_place_addresses_no_library_for_the_programs_own_raise_or_the_standard_librarys():
    from crashmatrix.resolve.culprit import culprit

    # the worker's raise is the program's own, though torch's fetch.py called it
    for text in (OWN_RAISE, JSON, CHAINED, WORKER):
        assert culprit(_real(text), exception_place(_real(text)), {"torch": "2.13.0"}) is None, text
    pil = culprit(_real(PIL), exception_place(_real(PIL)), {"pillow": "13.0.0"})
    assert pil is not None and (pil.package, pil.evidence, pil.raised) == ("PIL", "PIL/Image.py", True)
    # rank 1's own raise, not torchrun's ChildFailedError raised in torch/distributed/launcher/api.py
    assert culprit(_real(TORCHRUN), "tests/apps/ddp_train.py:46 in train", {"torch": "2.13.0"}) is None


def test_a_probes_fatal_signal_is_placed_in_probes_not_by_its_absolute_path():
    assert forensics.own_fault_frame(_real(PROBE_SEGV)) == "probes/fault.py:62 in _real_segv"


# A lent H200's environment lives in /opt/torch/.venv: every package's path holds `/torch/`, and transformers'
# and Triton's frames were taken for torch's (the library frame left out of `where`, Triton's `run` named the op).
OPT_TORCH_EMBEDDING = """\
Traceback (most recent call last):
  File "/srv/app/zoo/modes/gpu_hf_oov.py", line 14, in encode
    return model(input_ids=ids).last_hidden_state
  File "/opt/torch/.venv/lib/python3.12/site-packages/transformers/models/bert/modeling_bert.py", line 99, in forward
    inputs_embeds = self.word_embeddings(input_ids)
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/functional.py", line 2567, in embedding
    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)
torch.AcceleratorError: CUDA error: device-side assert triggered
"""
OPT_TORCH_TRITON_LAUNCH = """\
Traceback (most recent call last):
  File "/srv/app/zoo/modes/gpu_kernel_stride.py", line 23, in double_rows
    _double_rows[(x.shape[0],)](x, out, x.shape[1], stride, BLOCK=1024)
  File "/opt/torch/.venv/lib/python3.12/site-packages/triton/runtime/jit.py", line 744, in run
    kernel.run(grid_0, grid_1, grid_2, stream, kernel.function, kernel.packed_metadata, launch_metadata,
  File "/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/nvidia/driver.py", line 713, in __call__
    self.launch(gridX, gridY, gridZ, stream, function, self.launch_cooperative_grid, self.launch_pdl,
RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered
"""


@pytest.mark.parametrize(
    "text, where",
    [
        (OPT_TORCH_EMBEDDING, "embedding; transformers/models/bert/modeling_bert.py:99 in forward; "),
        (OPT_TORCH_TRITON_LAUNCH, "_double_rows; triton/backends/nvidia/driver.py:713 in __call__; "),
    ],
    ids=["transformers", "triton_kernel"],
)
def test_an_environment_in_a_folder_named_torch_makes_no_library_torchs(text, where):
    assert launch_place(text).startswith(where)


def test_a_trace_torch_compile_could_not_finish_is_placed_at_the_line_that_broke_it():
    # Recorded: tests/data/dynamo/graph_break_print.py.txt run alone (torch 2.13): under fullgraph=True a print
    # in forward breaks the graph. The traceback ends in torch/_dynamo, called from main's call of the model;
    # the line to change is forward's print, which only dynamo's `from user code:` block names.
    with open(os.path.join(ROOT, "tests", "data", "dynamo", "graph_break_print.stderr.log")) as f:
        text = f.read()
    assert exception_place(text) == (
        "torch/_dynamo/eval_frame.py:1177 in compile_wrapper; comp.py:11 in forward, traced from comp.py:17 in main"
    )
    # without that block, the place is the call as before
    without = text.split("\nfrom user code:\n")[0]
    assert exception_place(without) == "torch/_dynamo/eval_frame.py:1177 in compile_wrapper; comp.py:17 in main"
    # and it is signed at the line that broke the trace: two graph breaks in two functions are two failures
    # (before, the place's `, traced from ...` kept it unsigned, as the twenty-sixth held-out set's
    # cx_custom_op_no_fake showed)
    verdict = classify(1, stderr=text)
    signed = signed_by_place(verdict, exception_place(text)).signature
    assert signed.startswith("torch._dynamo.exc.") and signed.endswith(" in comp.py:forward"), signed


def test_a_library_dead_on_memory_the_program_pointed_it_to_is_the_programs_to_fix():
    # the sixth held-out set's p_worker_numpy_segv, as tests/apps/raw_pointer.py: numpy's sum died reading the
    # address the program made a pointer of (ctypes.cast, np.ctypeslib.as_array): numpy's maintainers would
    # ask for the program's pointer first. The dump is the real one (run alone); the native place is the
    # kernel's line, as the held-out run had it.
    import subprocess
    import sys

    from crashmatrix.resolve.culprit import culprit
    from crashmatrix.resolve.issue import whose_fix

    app = os.path.join(ROOT, "tests", "apps", "raw_pointer.py")
    done = subprocess.run([sys.executable, "-X", "faulthandler", app], capture_output=True, text=True, timeout=60)
    assert done.returncode == -11, done.stderr
    so = "numpy/_core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so (+0x514a86)"
    found = culprit(done.stderr, f"{so}; tests/apps/raw_pointer.py:17 in frame_sum", {"numpy": "2.3.0"}, by_signal=True)
    assert found is not None and (found.package, found.handed) == ("numpy", "tests/apps/raw_pointer.py:15")
    kind = type("Kind", (), {"outcome": "crash", "signal": "SIGSEGV", "signature": "killed_by_signal"})
    said, _ = whose_fix(kind, done.stderr, f"{so}; tests/apps/raw_pointer.py:17 in frame_sum", "", {"numpy": "2.3.0"})
    assert said.startswith("The program's to fix: the thread died in numpy's native code"), said
    assert "from a bare address at tests/apps/raw_pointer.py:15 (ctypes)" in said
    # the same death where the dying function made no pointer of its own: numpy's to look at, as before
    no_pointer = done.stderr.replace("line 17 in frame_sum", "line 21 in checksum")
    found = culprit(no_pointer, f"{so}; tests/apps/raw_pointer.py:21 in checksum", {"numpy": "2.3.0"}, by_signal=True)
    assert found is not None and found.package == "numpy" and not found.handed and found.owns_the_bug


def test_a_bus_error_in_a_library_reading_the_programs_file_mapping_is_the_programs_to_fix():
    # the seventh held-out set's q_worker_sigbus_truncated, its recorded stderr: a Dataset maps its cache with
    # np.memmap (:15, in __init__) and the program truncates the file; a worker's copy of a row (:21) dies by
    # SIGBUS in numpy's native code. numpy's maintainers would close that report.
    from diagnose_agreement import _checkout_paths

    from crashmatrix.resolve.culprit import culprit

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout7", "single", "cells", "6cc0e56296-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8", errors="replace") as f:
        stderr = _checkout_paths(f.read())
    where = "libc.so.6 (+0x16d809); zoo/modes/q_worker_sigbus_truncated.py:21 in __getitem__"
    found = culprit(stderr, where, {"numpy": "2.4.6"}, by_signal=True)
    assert found is not None and found.package == "numpy", found
    assert found.mapped == "zoo/modes/q_worker_sigbus_truncated.py:15" and not found.owns_the_bug
    # the same death by SIGSEGV is not a mapping's: a bus error is what reading past a mapped file's end gives
    segv = culprit(
        stderr.replace("Fatal Python error: Bus error", "Fatal Python error: Segmentation fault"),
        where,
        {},
        by_signal=True,
    )
    assert segv is not None and not segv.mapped


def test_a_worker_bus_error_reading_a_torch_load_mmap_is_no_shared_memory_shortage(tmp_path):
    # the twenty-eighth held-out set's ev_worker_mmap_rewritten, its recorded stderr: a Dataset loads its features
    # with torch.load(path, mmap=True) (:25, in __init__), the program saves a 1-row tensor over the same path, and a
    # worker's clone of a row (:32) dies by SIGBUS in libtorch_cpu; torch's words guess a small /dev/shm. Run alone,
    # the same. The truth: a worker's death by a signal, the program's to fix, not shm_full's advice.
    from diagnose_agreement import _checkout_paths

    from crashmatrix.resolve.diagnose import diagnose
    from crashmatrix.resolve.log_text import read_logs

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout28", "app", "cells", "2c8d43b07e-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8", errors="replace") as f:
        stderr = _checkout_paths(f.read())
    assert forensics.file_mapping_line(stderr) == "evalkit/data.py:25"
    (tmp_path / "job.err").write_text(stderr)
    found = diagnose(read_logs([str(tmp_path / "job.err")]))
    assert (found.row["outcome"], found.row["signal"]) == ("worker_crash", "SIGBUS"), found.row
    assert found.row["signature"] == "worker_signal in evalkit/data.py:__getitem__", found.row
    assert "reading a file the program memory-mapped at evalkit/data.py:25" in found.whose, found.whose


# The forty-ninth held-out set's cp_child_torch_logs_typo, its child's traceback as recorded by another checkout
# (/work/main) under inject: crashmatrix's import hook stands between Python's import and torch's module.
CHILD_IMPORT = f"""\
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "{ROOT}/tests/zoo/app/zoo/modes/cp_child_torch_logs_typo.py", line 9, in <module>
    import torch
  File "<frozen importlib._bootstrap>", line 690, in _load_unlocked
  File "/elsewhere/checkout/runner/incell/importhook.py", line 43, in exec_module
    self._loader.exec_module(module)
  File "/venv/lib/python3.11/site-packages/torch/_logging/_internal.py", line 855, in _parse_log_settings
    raise ValueError(_invalid_settings_err_msg(settings))
ValueError:{" "}
Invalid log settings: graph_breaks,recompile, must be a comma separated list of fully
qualified module names, registered log names or registered artifact names.
"""


def test_crashmatrixs_import_hook_from_another_checkout_is_no_frame_of_the_programs():
    assert exception_place(CHILD_IMPORT) == (
        "torch/_logging/_internal.py:855 in _parse_log_settings; zoo/modes/cp_child_torch_logs_typo.py:9 in <module>"
    )
    # a program's own folder named runner/incell, with a file crashmatrix has not, stays the program's
    mine = "/".join(("runner", "incell", "hooks.py"))
    own = CHILD_IMPORT.replace("/elsewhere/checkout/runner/incell/importhook.py", f"{ROOT}/tests/zoo/app/{mine}")
    assert f"{mine}:43 in exec_module" in exception_place(own)


def test_a_programs_own_file_named_as_crashmatrixs_in_cell_code_stays_the_programs(tmp_path):
    # a review's project: proj/runner/incell/rank.py of its own (crashmatrix has a runner/incell/rank.py too), on
    # this machine and beside no crashmatrix verdict code, was taken for crashmatrix's frame
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "runner" / "incell").mkdir(parents=True)
    (tmp_path / "runner" / "incell" / "rank.py").write_text("def wait_for_peers():\n    raise ValueError('x')\n")
    theirs = CHILD_IMPORT.replace(
        "/elsewhere/checkout/runner/incell/importhook.py", f"{tmp_path}/runner/incell/rank.py"
    )
    assert "runner/incell/rank.py:43 in exec_module" in exception_place(theirs)


def test_a_native_recursion_past_the_stack_is_the_programs_to_fix_not_cpythons():
    # the fiftieth held-out set's rx_worker_pickle_deep_stack, recorded (run alone: the program capped its stack at
    # 1 MiB, raised the recursion limit and pickled a list 20000 deep in a DataLoader worker, which died by SIGSEGV
    # in CPython's _pickle module). ISSUE.md was addressed to "the maintainers of lib-dynload", no project at all
    from crashmatrix.resolve.issue import whose_fix

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout50", "single", "cells", "6c9c6dc744-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8") as f:
        stderr = f.read()
    where = (
        "lib-dynload/_pickle.cpython-311-x86_64-linux-gnu.so (+0x755c); zoo/modes/rx_worker_pickle_deep_stack.py:27 "
        "in collate"
    )
    kind = type("Kind", (), {"outcome": "worker_crash", "signal": "SIGSEGV", "signature": "worker_signal"})
    said, whose = whose_fix(kind, stderr, where, "", {})
    assert said.startswith(
        "The program's to fix: the thread ran out of stack in a recursion in CPython's native code "
        "(lib-dynload/_pickle.cpython-311-x86_64-linux-gnu.so, one frame 29 times over)"
    ), said
    assert whose is not None and not whose.owns_the_bug


def test_a_subclass_recursing_through_torch_past_the_stack_is_the_programs_to_fix():
    # the eighty-fourth held-out set's worker_recursion_segv, recorded: a tensor subclass's __torch_function__ calls
    # torch on its own subclass without end, under a recursion limit the program raised; a DataLoader worker died by
    # SIGSEGV in libtorch_python.so. torch's backtrace stops after 56 frames (5 repeats of the dispatcher's);
    # faulthandler's dump gives the program's frame 100 times. ISSUE.md went to PyTorch's tracker.
    from crashmatrix.resolve.issue import whose_fix

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout84", "app", "cells", "b4c2fcc24c-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8", errors="replace") as f:
        stderr = f.read()
    where = "libtorch_python.so (+0xda5ebb); qtensor/tensors.py:17 in __torch_function__"
    kind = type("Kind", (), {"outcome": "worker_crash", "signal": "SIGSEGV", "signature": "worker_signal"})
    said, whose = whose_fix(kind, stderr, where, "", {"torch": "2.13.0"})
    assert said.startswith("The program's to fix: the thread ran out of stack in a recursion in torch's native"), said
    assert "calls itself through the library" in said, said
    assert whose is not None and not whose.owns_the_bug


def test_a_bus_error_in_torchs_code_is_the_programs_to_look_at_not_torchs():
    # the eighty-fourth held-out set's tf_ddp_mmap_quant_sigbus, recorded: rank 0 truncated the weights file both
    # ranks had mapped (torch.from_file, in another function than the one that died); rank 1 died by SIGBUS in
    # libtorch_cpu.so copying from its mapping. ISSUE.md went to PyTorch's tracker; a bus error is memory whose
    # backing is gone, which no library's maintainers take without more.
    from crashmatrix.resolve.issue import whose_fix

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout84", "torchrun", "cells", "9cb6e7292f-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8", errors="replace") as f:
        stderr = f.read()
    where = "libtorch_cpu.so (+0x76c654a); zoo/modes/tf_ddp_mmap_quant_sigbus.py:27 in unwrap"
    kind = type("Kind", (), {"outcome": "rank_crash", "signal": "SIGBUS", "signature": "killed_by_signal"})
    said, whose = whose_fix(kind, stderr, where, "Fatal Python error: Bus error", {"torch": "2.13.0"})
    assert said.startswith("The program's to look at first: the thread died by SIGBUS in torch's native code"), said
    assert "/dev/shm" in said and "truncated or rewritten while mapped" in said, said
    assert whose is not None and not whose.owns_the_bug


def test_a_death_the_kernel_places_in_torchs_library_is_addressed_to_torch():
    # the sixty-third held-out set's pf_profiler_never_stopped, recorded: a profiler left running, the process dies
    # by SIGSEGV at exit in libtorch_cpu.so's profiler teardown, no stack printed; the kernel's line names the file
    # alone (`libtorch_cpu.so (+0x64b1fde)`), and ISSUE.md said no installed library's code was in it
    from crashmatrix.resolve.issue import whose_fix

    class Kind:
        outcome, signal, signature = "crash", "SIGSEGV", "killed_by_signal"

    whose, found = whose_fix(Kind(), "", "libtorch_cpu.so (+0x64b1fde)", "killed by SIGSEGV", {"torch": "2.13.0"})
    assert found is not None and found.distribution == "torch", whose
    assert whose.startswith("For PyTorch's tracker"), whose
    # the C library's, by the same line, is no Python package's
    _whose, found = whose_fix(Kind(), "", "libc.so.6 (+0x9ae2f)", "killed by SIGSEGV", {"torch": "2.13.0"})
    assert found is None


def test_a_bus_error_is_no_mapped_files_where_only_another_function_maps_one_nor_torchs():
    # the eightieth held-out set's mm_resume_overwrite, its recorded stderr (run alone: the same): mapkit/train.py:37
    # open_checkpoint maps last.pt with torch.load(mmap=True), a save truncates it, and resume's load_state_dict (:45)
    # dies by SIGBUS in libtorch_cpu. Counting a mapping anywhere in the dying frame's files told it right, but a
    # review's programs that died writing shared memory a full /dev/shm could not back, while another function mapped
    # a file that stayed whole, were told to keep that file whole: only the dying function or its class counts. It was
    # then PyTorch's by the rule of a native death (judged untrue in HELDOUT80.md); a bus error is now no library's
    # without more (the eighty-fourth set's tf_ddp_mmap_quant_sigbus), its report naming both causes, no file.
    from diagnose_agreement import _checkout_paths

    from crashmatrix.resolve.culprit import culprit

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout80", "app", "cells/1a1f497472-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8", errors="replace") as f:
        stderr = _checkout_paths(f.read())
    assert forensics.file_mapping_line(stderr) == ""
    found = culprit(stderr, "libtorch_cpu.so (+0x76ba028); mapkit/train.py:45 in resume", {}, by_signal=True)
    assert found is not None and found.package == "torch" and found.bus and not found.owns_the_bug, found


def test_a_spawned_ranks_dataloader_worker_that_raised_is_placed_at_the_workers_line(tmp_path):
    # the eighty-third held-out set's worker_keyerror_rank1, its recorded stderr (run alone: the same): the program
    # launches 2 ranks with torch's elastic_launch (spawn); rank 1's DataLoader worker 0 raises KeyError: 'tokens' at
    # elastic/data.py:16; the rank re-raises `KeyError: Caught KeyError in DataLoader worker process 0.` with the
    # worker's `Original Traceback` under it, which elastic logs under `-- Process 1 terminated with the following
    # error:`. The worker's line is the place, as for a worker of a process that is no rank.
    from diagnose_agreement import _checkout_paths

    from crashmatrix.resolve.diagnose import diagnose
    from crashmatrix.resolve.log_text import read_logs

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout83", "app", "cells", "1a7372ac85-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8", errors="replace") as f:
        (tmp_path / "job.err").write_text(_checkout_paths(f.read()))
    found = diagnose(read_logs([str(tmp_path / "job.err")]))
    assert found.row["where"] == "elastic/data.py:16 in __getitem__", found.row
    assert found.row["signature"] == "KeyError: 'tokens' in elastic/data.py:__getitem__", found.row


def test_a_logged_traceback_before_a_spawned_ranks_own_is_not_its_failure():
    # the eighty-fifth held-out set's fs_dcp_resume_step_name, recorded (run alone: the same): two ranks started by
    # mp.spawn load a checkpoint from a folder the save named otherwise; torch.distributed.checkpoint logs `Global
    # metadata is not found. Falling back to rank local metadata.` with the FileNotFoundError it caught, then raises
    # CheckpointException, which multiprocessing reports as `Process SpawnProcess-1:`. The row said the logged
    # FileNotFoundError at pathlib.py. In r1 both ranks' reports ran into each other under two heads: the frames of
    # one, then the other's from its outermost again; the first, whole, is the place.
    from diagnose_agreement import _checkout_paths

    from crashmatrix.verdict.classify import classify

    for repeat in range(3):
        cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout85", "single", "cells", f"13e6fcf36a-r{repeat}")
        with open(os.path.join(cell, "stderr.log"), encoding="utf-8", errors="replace") as f:
            stderr = _checkout_paths(f.read())
        told = classify(1, stderr=stderr)
        assert told.error.startswith("torch.distributed.checkpoint.api.CheckpointException: CheckpointException"), told
        assert exception_place(stderr, error=told.error) == (
            "torch/distributed/checkpoint/utils.py:221 in reduce_scatter; zoo/modes/fs_dcp_resume_step_name.py:32 in train"
        ), repeat


def test_a_view_of_memory_a_called_function_made_from_a_bare_address_is_the_programs():
    # the eighty-fifth held-out set's resume_mapped_shard, recorded (run alone: the same): rank 1's restore (ckpt.py:51)
    # copies from views that map_flat, a function of the same file it calls, made with from_address over a libc mmap
    # and then munmapped; rank 1 died by SIGSEGV in torch's copy. ISSUE.md went to PyTorch's tracker: the bare address
    # was looked for in restore alone.
    from diagnose_agreement import _checkout_paths

    from crashmatrix.resolve.issue import whose_fix

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout85", "app", "cells", "375931987f-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8", errors="replace") as f:
        stderr = _checkout_paths(f.read())
    kind = type("Kind", (), {"outcome": "rank_crash", "signal": "SIGSEGV", "signature": "killed_by_signal"})
    said, whose = whose_fix(kind, stderr, "libtorch_cpu.so (+0x76ba028); shardtrain/ckpt.py:51 in restore", "", {})
    assert said.startswith("The program's to fix: the thread died in torch's native code"), said
    assert "from a bare address at shardtrain/ckpt.py:35 (ctypes)" in said, said
    assert whose is not None and not whose.owns_the_bug


def test_a_native_recursion_under_faulthandlers_handed_on_signal_is_still_told():
    # the hundred-and-third held-out set's jq_ddp_rank1_deep_jsonl, recorded: rank 1 raised the recursion limit and
    # json.loads a list nested 200000 deep; it died by SIGSEGV in CPython's _json. faulthandler's handler (first on a
    # fault under inject) handed the signal on to torch's, whose backtrace omits the interpreter's frames between the
    # handlers and the recursion: the frames were read up to that omission only, and ISSUE.md went to CPython
    from diagnose_agreement import _checkout_paths

    from crashmatrix.resolve.issue import whose_fix

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout103", "torchrun", "cells", "ac77b44e85-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8", errors="replace") as f:
        stderr = _checkout_paths(f.read())
    where = (
        "lib-dynload/_json.cpython-311-x86_64-linux-gnu.so (+0x5c93); zoo/modes/jq_ddp_rank1_deep_jsonl.py:42 in run"
    )
    kind = type("Kind", (), {"outcome": "rank_crash", "signal": "SIGSEGV", "signature": "killed_by_signal"})
    said, whose = whose_fix(kind, stderr, where, "", {})
    assert said.startswith("The program's to fix: the thread ran out of stack in a recursion in CPython's"), said
    assert whose is not None and not whose.owns_the_bug


def test_a_strided_view_a_called_function_made_over_a_mapping_is_told_as_the_view():
    # the hundred-and-third held-out set's windows_strided_worker, recorded: a DataLoader worker's __getitem__ maps a
    # clip (mmap_mode='r') and reads `fr = frames(...)`, a module function's as_strided view past the map's end, and
    # dies by SIGSEGV in the copy. ISSUE.md told a mapping read after it was closed, which it never was
    from diagnose_agreement import _checkout_paths

    from crashmatrix.resolve.issue import whose_fix

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout103", "app", "cells", "928405599c-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8", errors="replace") as f:
        stderr = _checkout_paths(f.read())
    kind = type("Kind", (), {"outcome": "worker_crash", "signal": "SIGSEGV", "signature": "worker_signal"})
    said, whose = whose_fix(kind, stderr, "libc.so.6 (+0x16d809); jqpipe/audio.py:31 in __getitem__", "", {})
    assert "copying a view the program made by its own strides at jqpipe/audio.py:16" in said, said
    assert "closed or unmapped" not in said and whose is not None and not whose.owns_the_bug


def test_a_recursion_whose_leaf_crashed_in_a_library_is_no_stack_overflow():
    # a review's program (tests/data/recursion-not-overflow.err, its run under inject, 2026-12-01): a recursive build 24
    # deep hands torch._weight_norm an empty gain at its leaf, and the process dies by SIGSEGV in libtorch_cpu (torch's
    # missing check: its bug). faulthandler's dump shows the program's `build` 24 times, short of the 100 frames a
    # stack that ran out fills; ISSUE.md had said the thread ran out of stack in a recursion.
    from crashmatrix.resolve.issue import whose_fix

    with open(os.path.join(ROOT, "tests", "data", "recursion-not-overflow.err"), encoding="utf-8") as f:
        stderr = f.read()
    kind = type("Kind", (), {"outcome": "crash", "signal": "SIGSEGV", "signature": "killed_by_signal"})
    said, whose = whose_fix(kind, stderr, "libtorch_cpu.so (+0x6b2d6b5); r_recurse/prog.py:13 in build", "", {})
    assert said.startswith("For PyTorch's tracker: the thread died in torch's own code"), said
    assert whose is not None and whose.owns_the_bug


def test_a_bare_address_a_helper_read_before_another_op_crashed_is_not_the_crash():
    # a review's program (tests/data/bare-address-elsewhere.err, its run under inject, 2026-12-01): step() first calls
    # checksum(), which reads the batch's bytes through ctypes' from_address, then hands torch._weight_norm an empty gain
    # at :17, and the process dies by SIGSEGV in libtorch_cpu (torch's missing check). Only memory a helper made and
    # the dying line read counts; ISSUE.md had blamed the checksum's pointer.
    from crashmatrix.resolve.issue import whose_fix

    program = os.path.join(ROOT, "tests", "apps", "bare_address", "step_checksum.py")  # the program, its source read
    with open(os.path.join(ROOT, "tests", "data", "bare-address-elsewhere.err"), encoding="utf-8") as f:
        stderr = f.read().replace("/tmp/review87/q_bareaddr/prog.py", program)
    kind = type("Kind", (), {"outcome": "crash", "signal": "SIGSEGV", "signature": "killed_by_signal"})
    said, whose = whose_fix(kind, stderr, "libtorch_cpu.so (+0x6b2d6b5); step_checksum.py:17 in step", "", {})
    assert said.startswith("For PyTorch's tracker: the thread died in torch's own code"), said

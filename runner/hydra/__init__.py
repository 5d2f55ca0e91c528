"""crashmatrix inside Hydra's own multirun (DESIGN.md, "Inside Hydra's multirun").

The plugins under hydra_plugins/crashmatrix/ are thin: their configs and the classes Hydra finds. The
work is here: `sweep` runs a batch of a multirun's jobs under crashmatrix's engine, each in its own
fresh process (`job` is that process's entry point), into the sweep directory as a run directory;
`jobs` turns a job's overrides into its knobs, the app's own overrides and its row's values;
`columns` sorts the sweep's overrides into axes and constants; `outputs` gives each job a Hydra output
folder of its own; `returns` gives Hydra a JobReturn per job; `strategies` is the sweeper's choice of jobs.
"""

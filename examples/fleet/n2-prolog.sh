#!/bin/sh
# Slurm TaskProlog of node n2 only: its tasks find the old build of fleetlib first.
echo "export PYTHONPATH=$(dirname "$(readlink -f "$0")")/builds/bad"

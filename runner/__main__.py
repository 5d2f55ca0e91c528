import sys

from crashmatrix.cli import main

sys.exit(main())

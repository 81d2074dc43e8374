# SPDX-License-Identifier: GPL-2.0
# Sphinx configuration of the project's documentation (make docs): plain
# reStructuredText as the kernel's Documentation/ writes it.
project = "sched-rust-lb"
copyright = "The sched-rust-lb authors"
master_doc = "index"
exclude_patterns = ["data"]
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
extensions = ["casetable"]
html_theme = "alabaster"
highlight_language = "none"

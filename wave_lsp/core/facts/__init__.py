"""What each runtime does, as data: the profiles (one per target), how each runtime's loader
reads a frontmatter, which fields it reads and how, its `${…}` variables, its conditional
activation and the tool-rule syntax of `allowed-tools` (docs/design/README.md *Layering*)."""

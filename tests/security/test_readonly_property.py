"""The read-only classifier attacked as a mechanism (issue 25, item 5): for every command on the
allow-list, every option that is not on its list — every abbreviation of a listed long option that
is not itself listed, attached (`--opt=x`) and detached forms, bundled with listed short options,
random spellings — makes the command not read-only; and options that write, run programs or
follow links, known per tool, are refused in every form."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wave_lsp.core.facts.profiles import CLAUDE_CODE, WAVE
from wave_lsp.core.permissions.readonly import NONE, commands, is_read_only, read_only_problem

TABLE = commands()
NAMES = sorted(TABLE)
#: commands whose every word is data (`echo -a` prints `-a`): they have no options to refuse
DATA_ONLY = {name for name, spec in TABLE.items() if not spec.flags}


def _words(name: str, *arguments: str) -> list[str]:
    return [*name.split(), *arguments]


def _listed(name: str) -> dict[str, str]:
    return dict(TABLE[name].flags)


@pytest.mark.parametrize("name", NAMES)
def test_every_unlisted_abbreviation_of_a_listed_long_option_is_refused(name: str) -> None:
    flags = _listed(name)
    for option in [o for o in flags if o.startswith("--")]:
        for end in range(3, len(option)):
            abbreviation = option[:end]
            if abbreviation in flags:
                continue
            for form in (abbreviation, abbreviation + "=x"):
                assert not is_read_only(_words(name, form), CLAUDE_CODE), (name, form)


@pytest.mark.parametrize("name", NAMES)
def test_a_value_given_to_an_option_that_takes_none_is_refused(name: str) -> None:
    for option, kind in _listed(name).items():
        if option.startswith("--") and kind == NONE:
            assert not is_read_only(_words(name, option + "=x"), CLAUDE_CODE), (name, option)


@pytest.mark.parametrize("name", sorted(set(NAMES) - DATA_ONLY))
def test_an_unlisted_short_option_is_refused_alone_and_bundled(name: str) -> None:
    flags = _listed(name)
    plain = [o for o, kind in flags.items() if len(o) == 2 and kind == NONE]
    for letter in string.ascii_letters + string.digits:
        option = "-" + letter
        if option in flags or (TABLE[name].numeric_shorthand and letter.isdigit()):
            continue
        assert not is_read_only(_words(name, option), CLAUDE_CODE), (name, option)
        for other in plain[:3]:
            for bundle in (other + letter, "-" + letter + other[1:]):
                assert not is_read_only(_words(name, bundle), CLAUDE_CODE), (name, bundle)


#: options that write files, run programs, read outside the project or never end, per command;
#: each is refused spelled out, abbreviated, attached and bundled
DANGEROUS = {
    "sort": ["--output", "-o", "--compress-program", "--files0-from", "-T",
             "--temporary-directory", "--random-source"],
    "git grep": ["-O", "--open-files-in-pager", "--no-index", "-f", "--textconv", "--ext-grep"],
    "git diff": ["--output", "--ext-diff", "--no-index", "--textconv"],
    "git log": ["--output", "--ext-diff", "--textconv"],
    "git show": ["--output", "--ext-diff", "--textconv"],
    "git branch": ["--edit-description", "-m", "-M", "-d", "-D", "-c", "-C", "-u",
                   "--set-upstream-to", "-f", "--format"],
    "git tag": ["-d", "-a", "-s", "-f", "-m", "-F", "-u"],
    "tail": ["-f", "-F", "--follow", "--retry", "--pid", "-s"],
    "grep": ["-R", "--dereference-recursive"],
    "rg": ["--pre", "--pre-glob", "-z", "--search-zip", "-L", "--follow"],
    "file": ["-C", "--compile", "-f", "--files-from", "-s", "-L", "-z"],
    "tree": ["-o", "-R", "-l", "--fromfile"],
    "du": ["-L", "--dereference", "--files0-from", "-X", "--exclude-from"],
    "wc": ["--files0-from"],
    "date": ["-s", "--set", "-f", "--file"],
    "hostname": ["-F", "--file", "-b", "--boot"],
    "ls": ["-L", "--dereference"],
    "diff": ["-r", "--recursive", "--from-file", "--to-file", "-x", "-X"],
    "cat": [], "head": [], "uniq": [],
}


@pytest.mark.parametrize("name", sorted(DANGEROUS))
def test_dangerous_options_are_refused_in_every_form(name: str) -> None:
    for option in DANGEROUS[name]:
        forms = [[option], [option, "x"], [option + "=x"]]
        if option.startswith("--"):
            forms += [[option[:end]] for end in range(4, len(option))]
            forms += [[option[:end] + "=x"] for end in range(4, len(option))]
        else:
            forms += [[option + "x"], ["-v" + option[1:], "x"], [option + "v"]]
        for arguments in forms:
            head = arguments[0].split("=", 1)[0]
            if head in TABLE[name].flags and head not in DANGEROUS[name]:
                continue  # a listed option that happens to be a prefix (`--no-…`)
            assert not is_read_only(_words(name, *arguments), CLAUDE_CODE), (name, arguments)


OPTION = st.from_regex(r"--?[a-zA-Z][a-zA-Z0-9-]{0,20}(=[a-z./]{0,5})?", fullmatch=True)


@settings(max_examples=400, deadline=None)
@given(name=st.sampled_from(NAMES), option=OPTION)
def test_a_random_option_is_read_only_only_when_the_list_says_so(name: str, option: str) -> None:
    spec = TABLE[name]
    if name in DATA_ONLY:
        return  # their words are data, not options
    verdict = is_read_only(_words(name, option), CLAUDE_CODE)
    if not verdict:
        return
    # accepted: then it is a listed option, a bundle of listed short options, or a count
    head = option.split("=", 1)[0]
    if head.startswith("--"):
        assert head in spec.flags, (name, option)
    elif not (spec.numeric_shorthand and head[1:].isdigit()):
        assert all("-" + letter in spec.flags for letter in head[1:2]), (name, option)


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.text(alphabet=string.printable, max_size=12), min_size=1, max_size=5))
def test_wave_never_auto_allows_and_the_classifier_never_crashes(words: list[str]) -> None:
    assert read_only_problem(words, WAVE) is not None
    read_only_problem(words, CLAUDE_CODE)

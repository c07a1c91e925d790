"""Triton's kernel cache, checked before a cached kernel is used.

A cache entry is a group file (`__grp__<kernel>.json`) naming the kernel's files: its metadata
(`<kernel>.json`), the text of each stage and the object. A disk error, a writer killed
mid-write or a manual edit can damage any of them; Triton would then fail on every run (a
metadata file that is not JSON) or hand the linker an object that aborts the process. Here a
damaged entry is a cache miss: a warning names the file and the kernel is compiled again,
which rewrites the entry.

The object's SHA-256 is part of the metadata tritium writes, so a damaged object body is
found even where it still parses.
"""

import hashlib
import json
import os
import warnings

from triton.runtime.cache import FileCacheManager

# The metadata key holding the object's digest (written by the backend's obj stage).
OBJECT_DIGEST_KEY = "obj_sha256"
_REQUIRED_METADATA = ("name", "hash", "target")


class DamagedCacheWarning(RuntimeWarning):
    """A cached kernel file was damaged; the kernel is compiled again."""


def object_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _metadata_damage(text):
    try:
        metadata = json.loads(text)
    except ValueError as error:
        return None, f"not valid JSON ({error})"
    if not isinstance(metadata, dict):
        return None, "not a JSON object"
    missing = [key for key in _REQUIRED_METADATA if key not in metadata]
    if missing:
        return None, f"missing {', '.join(missing)}"
    target = metadata["target"]
    if not isinstance(target, dict) or not {"backend", "arch", "warp_size"} <= set(target):
        return None, "its target is not a Triton target"
    return metadata, None


def find_damage(group):
    """(path, reason) of the first damaged file of a cache group, or None if all are sound."""
    metadata = None
    for name, path in group.items():
        if name.endswith(".json"):
            try:
                with open(path, encoding="utf-8") as file:
                    text = file.read()
            except (OSError, UnicodeDecodeError) as error:
                return path, f"unreadable ({error})"
            metadata, reason = _metadata_damage(text)
            if reason:
                return path, reason
    if metadata is None:
        return None
    for name, path in group.items():
        if name.endswith(".json"):
            continue
        try:
            with open(path, "rb") as file:
                data = file.read()
        except OSError as error:
            return path, f"unreadable ({error})"
        if name.endswith(".obj"):
            expected = metadata.get(OBJECT_DIGEST_KEY)
            if expected is not None and object_digest(data) != expected:
                return path, "its contents do not match the digest recorded when it was written"
        else:
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                return path, "not text"
    return None


class ValidatedFileCacheManager(FileCacheManager):
    """Triton's file cache, where a damaged entry is a miss announced by a warning."""

    def get_group(self, filename):
        group = super().get_group(filename)
        group_path = self._make_path(f"__grp__{filename}")
        if group is None:
            if self.cache_dir and os.path.exists(group_path):
                self._warn(*self._why_unusable(group_path))
            return None
        damage = find_damage(group)
        if damage:
            self._warn(*damage)
            return None
        return group

    @staticmethod
    def _why_unusable(group_path):
        """(path, reason) for a group file Triton's own reader turned down."""
        try:
            with open(group_path, encoding="utf-8") as file:
                children = json.load(file)["child_paths"]
            missing = [path for path in children.values() if not os.path.exists(path)]
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            return group_path, f"not a valid group file ({type(error).__name__})"
        if missing:
            return missing[0], "missing"
        return group_path, "not a valid group file"

    @staticmethod
    def _warn(path, reason):
        warnings.warn(f"tritium: the cached kernel file {path} is damaged ({reason}); compiling "
                      f"the kernel again", DamagedCacheWarning, stacklevel=4)


def install():
    """Makes the validated cache Triton's cache, unless the user chose a cache manager."""
    from triton import knobs
    if os.environ.get("TRITON_CACHE_MANAGER") or knobs.cache.manager_class is not None:
        return
    knobs.cache.manager_class = ValidatedFileCacheManager

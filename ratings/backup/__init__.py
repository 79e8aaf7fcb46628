"""The club's backup and restore: :mod:`~ratings.backup.files` (the file ``backup_club`` writes
and ``restore_club`` reads, a Django serializer), :mod:`~ratings.backup.restore` (the loader: each
object and field checked before it is written) and :mod:`~ratings.backup.checks` (the restored
club checked as a whole against the engine's rules and replay).
"""

"""`dump audit` on Apache Spark: each `__consumer_offsets` partition decoded and audited by its own task.

Nothing here imports pyspark at module level except the modules only a Spark run loads (`job`,
`session`), so the CLI starts as fast without Spark as with it.
"""

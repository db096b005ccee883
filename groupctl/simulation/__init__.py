"""Simulated consumers driving the in-process coordinator on virtual time, and the scenarios built on
them (`groupctl simulate`): what a group does under an operation, measured before anyone tries it live.
"""

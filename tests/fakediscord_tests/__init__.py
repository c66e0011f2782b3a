"""End-to-end tests of the fake Discord's newer surfaces (components on posts and DMs, modals, Components V2,
shards, hostile conditions, inspection), each driven through a real discord.py client."""

"""Members' accounts: invitations and claims (docs/members.md), a module per seam.

- :mod:`~ratings.accounts.models`: Invitation (a single-use link, stored as its digest) and
  PlayerClaim (a member's request to be a player), loaded by ``ratings.apps``;
- :mod:`~ratings.accounts.services`: every write (invite, withdraw, accept, claim, approve,
  refuse), keyword-only, atomic, audited;
- :mod:`~ratings.accounts.merging`: their part in merging two players;
- :mod:`~ratings.accounts.forms`: the login an invited person chooses, a claim;
- :mod:`~ratings.accounts.views`: the invitation's page and the member's account;
- :mod:`~ratings.accounts.admin`: invitations and claims in the admin, and the players' action
  that invites (added by ``ratings.admin.players``).

There is no open sign-up: a login is made by an invitation, or by staff in the admin.
"""

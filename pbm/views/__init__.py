"""What players read: board mails and listings, each seen from its reader's side."""

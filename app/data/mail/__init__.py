"""E-mail as the data layer sees it: messages checked and built with the standard library,
the outbox table's rows, who receives a notification, and how a message leaves the board
(SMTP, or the instance folder's outbox on the embedded default). The web layer and the worker
write mails here; the worker's ``send_mail`` job sends them."""

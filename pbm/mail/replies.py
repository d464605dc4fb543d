"""What one inbound mail sends: one answer to its sender, plus board mails and notices.

A mail of fifty `show` lines, or a Subject naming one board a thousand times, once made
pbm send a mail per answer. Now every answer of a mail goes out together in one mail, the
same answer only once, and the whole is bounded in size.
"""

from __future__ import annotations

from pbm.context import Reply
from pbm.views import boardhtml
from pbm.width import fit

MAX_ANSWER_CHARS = 200_000
MERGED_SUBJECT = "Replies to your commands"


def consolidate(replies: list[Reply]) -> list[Reply]:
    """The mails to send for `replies`: the answers merged into one (where the first was),
    identical board mails and notices once each."""
    answers = list(dict.fromkeys(r for r in replies if r.kind == "answer"))
    merged = merge(answers)
    out: list[Reply] = []
    seen: set[Reply] = set()
    for reply in replies:
        if reply.kind == "answer":
            if merged is not None:
                out.append(merged)
                merged = None
        elif reply not in seen:
            seen.add(reply)
            out.append(reply)
    return out


def merge(answers: list[Reply]) -> Reply | None:
    """One mail holding every answer, in order; a long one says what it left out."""
    if len(answers) <= 1:
        return answers[0] if answers else None
    subjects = {answer.subject for answer in answers}
    subject = answers[0].subject if len(subjects) == 1 else MERGED_SUBJECT
    parts = [f"Your mail held several commands; here are their {len(answers)} replies, "
             "in order.\n"]
    size = len(parts[0])
    included = answers
    for index, answer in enumerate(answers):
        section = f"\n=== {answer.subject} ===\n\n{answer.body.rstrip()}\n"
        if size + len(section) > MAX_ANSWER_CHARS:
            rest = [a.subject for a in answers[index:]]
            # Fitted here, not only in the Reply: the HTML part shows it in a <pre>.
            parts.append(fit(f"\n=== {len(rest)} more replies left out ===\n\nThis mail would "
                             "have grown too long. Ask for fewer things in one mail. Left out: "
                             f"{', '.join(rest[:20])}{', ...' if len(rest) > 20 else ''}.\n"))
            included = answers[:index]
            break
        parts.append(section)
        size += len(section)
    html = None
    if any(answer.html is not None for answer in included):  # a `show` of several boards
        left_out = parts[-1] if len(parts) > len(included) + 1 else ""
        html = boardhtml.combined(parts[0], [(a.subject, a.body, a.html) for a in included],
                                  left_out)
    return Reply(answers[0].to, subject, "".join(parts), "answer", html=html)

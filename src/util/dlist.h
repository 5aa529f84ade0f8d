/* Intrusive doubly linked lists (internal to cuzk): the links are fields of
 * the nodes, named by the caller (next and prev, tnext and tprev, ...), and
 * the list is a pointer to its first node, with _TAIL also one to its last.
 * Nothing is allocated; node's own links are left as they were. */
#ifndef CZ_UTIL_DLIST_H
#define CZ_UTIL_DLIST_H

/* Takes node out of the list whose first node is first. */
#define CZ_DLIST_UNLINK(first, node, prev, next)                                                   \
    do {                                                                                           \
        if ((node)->prev)                                                                          \
            (node)->prev->next = (node)->next;                                                     \
        else                                                                                       \
            (first) = (node)->next;                                                                \
        if ((node)->next)                                                                          \
            (node)->next->prev = (node)->prev;                                                     \
    } while (0)

/* Takes node out of the list from first to last. */
#define CZ_DLIST_UNLINK_TAIL(first, last, node, prev, next)                                        \
    do {                                                                                           \
        if ((node)->prev)                                                                          \
            (node)->prev->next = (node)->next;                                                     \
        else                                                                                       \
            (first) = (node)->next;                                                                \
        if ((node)->next)                                                                          \
            (node)->next->prev = (node)->prev;                                                     \
        else                                                                                       \
            (last) = (node)->prev;                                                                 \
    } while (0)

#endif /* CZ_UTIL_DLIST_H */

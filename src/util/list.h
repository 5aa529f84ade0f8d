/* Intrusive lists (internal to cuzk): the links are fields of the nodes,
 * named by the caller (next and prev, tnext and tprev, qnext, ...), and a
 * list is a pointer to its first node, and to its last where it has one.
 * Nothing is allocated. */
#ifndef CZ_UTIL_LIST_H
#define CZ_UTIL_LIST_H

/* Takes node out of the doubly linked list whose first node is first;
 * node's own links are left as they were. */
#define CZ_DLIST_UNLINK(first, node, prev, next)                                                   \
    do {                                                                                           \
        if ((node)->prev)                                                                          \
            (node)->prev->next = (node)->next;                                                     \
        else                                                                                       \
            (first) = (node)->next;                                                                \
        if ((node)->next)                                                                          \
            (node)->next->prev = (node)->prev;                                                     \
    } while (0)

/* The same for a doubly linked list from first to last. */
#define CZ_DLIST_UNLINK_TAIL(first, last, node, prev, next)                                        \
    do {                                                                                           \
        if ((node)->next == NULL)                                                                  \
            (last) = (node)->prev;                                                                 \
        CZ_DLIST_UNLINK(first, node, prev, next);                                                  \
    } while (0)

/* Appends node to the queue (singly linked) from first to last. */
#define CZ_QUEUE_APPEND(first, last, node, next)                                                   \
    do {                                                                                           \
        (node)->next = NULL;                                                                       \
        if (last)                                                                                  \
            (last)->next = (node);                                                                 \
        else                                                                                       \
            (first) = (node);                                                                      \
        (last) = (node);                                                                           \
    } while (0)

#endif /* CZ_UTIL_LIST_H */

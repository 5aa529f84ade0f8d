/* The Filecoin proof families (family.h), one row each: its kind (the
 * engine's kind and name, its queue in GetStatus as the Rust cuzk names
 * it, the priority an unset one means, its circuit ids' prefix), what
 * messages call it, the --circuit of `cuzk params` that makes its
 * files, the verifier whose public inputs its witness carries, its hooks
 * and their variant.  Unset priorities are the Rust cuzk's
 * Priority::default_for: what is at stake decides, a WindowPoSt's
 * deadline, a WinningPoSt's block reward. */
#include "cuzk/filecoin/post.h"
#include "engine/family.h"

#define KIND(k, name, queue, prio, ids)                                                            \
    {                                                                                              \
        k, name, queue, prio, ids,                                                                 \
            .check = cz_eng_family_check, .admit = cz_eng_family_admit,                            \
            .release = cz_eng_family_release, .of_circuit = cz_eng_family_of_circuit,              \
            .load = cz_eng_family_load, .synthesize = cz_eng_family_synthesize,                    \
            .enabled = cz_eng_family_enabled                                                       \
    }

const cz_eng_family cz_eng_families[CZ_ENG_FAMILIES] = {
    [CZ_ENG_POREP] = {KIND(CZ_KIND_POREP, "porep", "porep-c2", CZ_PRIO_NORMAL, CZ_CIRCUIT_ID_POREP),
                      "PoRep", "porep", "verify_seal", &cz_eng_porep_hooks, 0},
    [CZ_ENG_SNAP] = {KIND(CZ_KIND_SNAP, "snap", "snap-update", CZ_PRIO_NORMAL, CZ_CIRCUIT_ID_SNAP),
                     "SnapDeals", "snap", "verify_empty_sector_update_proof", &cz_eng_snap_hooks,
                     0},
    [CZ_ENG_WINDOW_POST] = {KIND(CZ_KIND_WINDOW_POST, "window-post", "window-post", CZ_PRIO_HIGH,
                                 CZ_CIRCUIT_ID_WINDOW),
                            "WindowPoSt", "wpost", "verify_window_post", &cz_eng_post_hooks,
                            CZ_POST_WINDOW},
    [CZ_ENG_WINNING_POST] = {KIND(CZ_KIND_WINNING_POST, "winning-post", "winning-post",
                                  CZ_PRIO_CRITICAL, CZ_CIRCUIT_ID_WINNING),
                             "WinningPoSt", "winning", "verify_winning_post", &cz_eng_post_hooks,
                             CZ_POST_WINNING},
};

/* cuzk: the operator's tool (src/tool/cuzk.c lists its commands). */
#include "tool/tool.h"

int main(int argc, char **argv) { return cz_cli_main(&cz_tool, argc, argv); }

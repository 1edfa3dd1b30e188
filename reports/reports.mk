# reports.mk -- the reports module's rules, included by the Makefile.
#
# reports/*.c sit above properties/ in the data flow and are linked into
# the filterlab binary and the unit tests (plain and ASan), not into
# libfilterlab.a, which carries the engine and the plugin ABI.

REPORT_SRCS  := $(wildcard reports/*.c)
REPORT_OBJS  := $(REPORT_SRCS:%.c=$(BUILD)/obj/%.o)
AREPORT_OBJS := $(REPORT_SRCS:%.c=$(BUILD)/asan/obj/%.o)

$(BUILD)/filterlab $(BUILD)/tests/unit: $(REPORT_OBJS)
$(BUILD)/asan/filterlab $(BUILD)/asan/tests/unit: $(AREPORT_OBJS)

# The default report (make report): the shipped GroupId||Suffix workload.
REPORT_WORKLOADS ?= reports/workloads/group_suffix.wl
REPORT_OUT       ?= reports/out
REPORT_ARGS      ?=

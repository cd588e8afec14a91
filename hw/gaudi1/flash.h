/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * Gaudi 1 SPI flash as this project's device-CPU firmware exposes it: the
 * CPU-CP flash extension (Documentation/firmware/flash.rst).  Not an
 * upstream interface: our firmware and gaudi.ko agree on it, so it is
 * described once here, kernel-safe (no names shared with upstream headers).
 */
#ifndef GAUDI1_FLASH_H
#define GAUDI1_FLASH_H

/* The flash erases in 64 KiB sectors. */
#define GAUDI_FLASH_ERASE_SIZE		0x10000U

/*
 * CPU-CP opcodes of the flash extension (cpucp_packet ctl bits 28:16), far
 * above upstream's enum cpucp_packet_id.  Packet fields: addr (offset 0)
 * a host buffer ("CPU-accessible" address), offset 16 the flash offset or
 * slot, offset 20 the length.
 */
#define GAUDI_CPUCP_FLASH_INFO		0x1F00	/* addr, 16: buffer size */
#define GAUDI_CPUCP_FLASH_READ		0x1F01	/* addr, 16: offset, 20: len */
#define GAUDI_CPUCP_FLASH_ERASE		0x1F02	/* 16: offset, 20: len */
#define GAUDI_CPUCP_FLASH_PROGRAM	0x1F03	/* addr, 16: offset, 20: len */
#define GAUDI_CPUCP_FLASH_ACTIVATE	0x1F04	/* addr: crc << 32 | size, 16: slot */
#define GAUDI_CPUCP_FLASH_FIRST		GAUDI_CPUCP_FLASH_INFO
#define GAUDI_CPUCP_FLASH_LAST		GAUDI_CPUCP_FLASH_ACTIVATE

/* The 64-bit result word: status 7:0, detail 15:8, value 63:32. */
#define GAUDI_FLASH_RES_STATUS		0x00000000000000FFULL
#define GAUDI_FLASH_RES_DETAIL		0x000000000000FF00ULL
#define GAUDI_FLASH_RES_VALUE		0xFFFFFFFF00000000ULL

#endif /* GAUDI1_FLASH_H */

"""Brief F7 (issue 15): the communication transports beside and under NCCL, from their own format strings.

Each case instantiates a message as the library that prints it formats it (the comment names the emitter and its
source file): UCX's logger ("[time] [host:pid:tid] file.c:line UCX  <LEVEL> ...") with the ucs_status_string texts,
the mlx5 completion syndromes, the socket layer, shared memory, CUDA transports and async events; libfabric's
provider log line ("libfabric:<pid>:<time>::<prov>:<subsys>:<func>():<line><level> ...") and the EFA provider's
completion status texts and help sentences; aws-ofi-nccl (NET/OFI); Open MPI's UCX PML, TCP BTL, OFI MTL, mpirun and
help texts; UCC's component loggers; Gloo's TCP transport and enforce macro; NVSHMEM's error macros; DeepEP's host
exceptions; NIXL; Mooncake's transfer engine; RCCL. The category follows LABELS.md: refused / reset / closed by the
peer -> nccl_remote_peer; completion errors, unreachable routes, set-up and registration failures -> nccl_error (port
events -> ib_link); CUDA failures inside the transport -> nccl_cuda_error (a named cause keeps its CUDA category);
timeouts of a transfer -> nccl_timeout; the caller's own misuse or configuration -> nccl_user_error. Benign siblings
are the INFO/WARN/DEBUG notices, capability probes and fall-backs of the same libraries. Every case is also checked
behind the prefixes launchers add (torchrun, Ray, pdsh, mpirun --tag-output). Hosts, ids, paths and numbers are made
up. No line is a copy of a corpus line (checked below without printing any).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

_U = "[1731012345.678901] [gpu-k7:48211:0]"  # the UCX / UCC log prefix: [time] [host:pid:tid]

# (log source, line, expected category); the comment names the emitter and its source file
FORMATS: list[tuple[str, str, str]] = [
    # ---- UCX (openucx/ucx)
    # uct/ib/base/ib_md.c uct_ib_reg_mr: ibv_reg_mr failure
    ("training", f"{_U}           ib_md.c:293  UCX  ERROR ibv_reg_mr(address=0x7f2a40000000, length=536870912, access=0xf) failed: Bad address", "nccl_error"),
    # uct/ib/base/ib_md.c (older MLNX_OFED experimental verbs)
    ("training", f"{_U}           ib_md.c:412  UCX  ERROR ibv_exp_reg_mr(address=0x2b11c000, length=1048576, exp_access=0xf) failed: Cannot allocate memory", "nccl_error"),
    # uct/ib/base/ib_md.c uct_ib_dereg_mr
    ("training", f"{_U}           ib_md.c:356  UCX  ERROR ibv_dereg_mr() failed: Device or resource busy", "nccl_error"),
    # ucp/core/ucp_mm.c ucp_mem_rereg_mds
    ("training", f"{_U}          ucp_mm.c:160  UCX  ERROR failed to register address 0x7f5b80000000 mem_type bit 0x2 length 8388608 on md[3]=mlx5_2: Input/output error (md reg_mem_types 0x3)", "nccl_error"),
    # uct/ib/rc/verbs/rc_verbs_iface.c: send completion with a verbs wc status (ibv_wc_status_str)
    ("training", f"{_U}  rc_verbs_iface.c:71   UCX  ERROR send completion with error: transport retry counter exceeded", "nccl_error"),
    # uct/ib/rc/verbs/rc_verbs_iface.c
    ("training", f"{_U}  rc_verbs_iface.c:71   UCX  ERROR send completion with error: remote access error", "nccl_error"),
    # uct/ib/mlx5/ib_mlx5_log.c uct_ib_mlx5_completion_with_err at ERROR level
    ("training", f"{_U}    ib_mlx5_log.c:179  UCX  ERROR Transport retry count exceeded on mlx5_3:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)", "nccl_error"),
    # uct/ib/mlx5/ib_mlx5_log.c
    ("training", f"{_U}    ib_mlx5_log.c:179  UCX  ERROR Receive-no-ready retry count exceeded on mlx5_0:1/IB (synd 0x16 vend 0x0 hw_synd 0/0)", "nccl_error"),
    # uct/ib/mlx5/ib_mlx5_log.c (DC transport)
    ("training", "[gpu-k7:48211:0:48230] ib_mlx5_log.c:179  Remote QP on mlx5_1:1/IB (synd 0x11 vend 0x22 hw_synd 0/97)", "nccl_error"),
    # uct/ib/mlx5/ib_mlx5_log.c
    ("training", "[gpu-k7:48211:0:48230] ib_mlx5_log.c:179  Local length on mlx5_4:1/RoCE (synd 0x1 vend 0x69 hw_synd 0/0)", "nccl_error"),
    # ucp/core/ucp_worker.c ucp_worker_iface_error_handler: an endpoint error no callback handles
    ("training", f"{_U}      ucp_worker.c:1912 UCX  ERROR Error Endpoint timeout was not handled for ep 0x7f8e1c0a2040 - rc_mlx5/mlx5_0:1", "nccl_error"),
    # ucp/core/ucp_worker.c (older: no transport suffix)
    ("training", f"{_U}      ucp_worker.c:1563 UCX  ERROR Error Destination is unreachable was not handled for ep 0x2b3c40", "nccl_error"),
    # ucp/core/ucp_worker.c with UCS_ERR_NOT_CONNECTED
    ("training", f"{_U}      ucp_worker.c:1912 UCX  ERROR Error Endpoint is not connected was not handled for ep 0x7f00c8012000 - tcp/ens5", "nccl_remote_peer"),
    # ucp/core/ucp_worker.c with UCS_ERR_REJECTED
    ("training", f"{_U}      ucp_worker.c:1912 UCX  ERROR Error Operation rejected by remote peer was not handled for ep 0x7f00c8013100 - sockcm/ens5", "nccl_remote_peer"),
    # ucp/core/ucp_ep.c ucp_ep_set_failed (DIAG without an error handler)
    ("training", f"{_U}          ucp_ep.c:1511 UCX  DIAG  ep 0x7f11aa0b4000: error 'Connection reset by remote peer' on tcp/eth0 will not be handled since no error callback is installed", "nccl_remote_peer"),
    # ucp/core/ucp_ep.c
    ("training", f"{_U}          ucp_ep.c:1511 UCX  DIAG  ep 0x7f11aa0b4100: error 'Endpoint timeout' on rc_mlx5/mlx5_1:1 will not be handled since no error callback is installed", "nccl_error"),
    # ucp/core/ucp_ep.c
    ("training", f"{_U}          ucp_ep.c:1530 UCX  ERROR ep 0x7f11aa0b4200: error 'Endpoint is not connected' on dc_mlx5/mlx5_3:1 will not be handled since no error callback is installed", "nccl_remote_peer"),
    # ucs/sys/sock.c ucs_socket_connect: the local path failed
    ("training", f"{_U}            sock.c:325  UCX  ERROR connect(fd=41, dest_addr=10.8.3.21:45123) failed: No route to host", "nccl_error"),
    # ucs/sys/sock.c
    ("training", f"{_U}            sock.c:325  UCX  ERROR connect(fd=63, dest_addr=10.8.3.22:38001) failed: Connection timed out", "nccl_error"),
    # ucs/sys/sock.c ucs_socket_do_io: the peer went away
    ("training", f"{_U}            sock.c:489  UCX  ERROR sendv(fd=37) failed: Broken pipe", "nccl_remote_peer"),
    # ucs/sys/sock.c
    ("training", f"{_U}            sock.c:489  UCX  ERROR send(fd=52) failed: Connection reset by peer", "nccl_remote_peer"),
    # ucs/sys/sock.c ucs_socket_create
    ("training", f"{_U}            sock.c:139  UCX  ERROR socket create failed: Too many open files", "nccl_error"),
    # ucs/sys/sock.c ucs_socket_server_init
    ("training", f"{_U}            sock.c:707  UCX  ERROR bind(fd=29 addr=0.0.0.0:13337) failed: Address already in use", "nccl_error"),
    # ucp/wireup/select.c: no lane can reach the peer
    ("training", f"{_U}          select.c:630  UCX  ERROR no active messages transport to <no debug data>: self/memory - Destination is unreachable, tcp/ib0 - Destination is unreachable", "nccl_error"),
    # ucp/wireup/select.c
    ("training", f"{_U}          select.c:627  UCX  ERROR no remote memory access transport to gpu-k9:3301: mlx5_0:1/rc_mlx5 - no put short, tcp/eth0 - no put short", "nccl_error"),
    # ucs/sys/sys.c ucs_sysv_alloc / ucs_sysv_shmget_format_error
    ("training", f"{_U}             sys.c:618  UCX  ERROR shmget(size=4198400 flags=0x7b0) for mm_recv_desc failed: No space left on device, please check shared memory limits by 'ipcs -l'", "nccl_error"),
    # ucs/sys/sys.c (older releases)
    ("training", f"{_U}             sys.c:402  UCX  ERROR shmget(size=8392704, flags=0x7b0) returned unexpected error: Invalid argument. Please check shared memory limits by 'ipcs -l'.", "nccl_error"),
    # uct/sm/mm/posix/mm_posix.c: the peer's segment is gone
    ("training", f"{_U}        mm_posix.c:233  UCX  ERROR open(file_name=/proc/30441/fd/37 flags=0x0) failed: No such file or directory", "nccl_error"),
    # uct/sm/mm/base/mm_ep.c: the peer's shared-memory FIFO could not be attached
    ("training", f"{_U}           mm_ep.c:149  UCX  ERROR mm ep failed to connect to remote FIFO id 0xc0000007001a2b3c: Shared memory error", "nccl_error"),
    # uct/sm/mm/xpmem/mm_xpmem.c
    ("training", f"{_U}       mm_xpmem.c:117  UCX  ERROR xpmem_get(segid=0x200000abc) failed: Permission denied", "nccl_error"),
    # uct/cuda/cuda_copy/cuda_copy_md.c: device memory exhausted
    ("training", f"{_U}    cuda_copy_md.c:345  UCX  ERROR cuMemAlloc(&dptr, length) failed: out of memory", "cuda_oom"),
    # uct/cuda/cuda_ipc/cuda_ipc_cache.c
    ("training", f"{_U}   cuda_ipc_cache.c:313  UCX  ERROR cuIpcOpenMemHandle(&key->d_mapped, key->ph, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) failed: peer access is not supported between these two devices", "nccl_cuda_error"),
    # uct/cuda/cuda_ipc/cuda_ipc_md.c
    ("training", f"{_U}     cuda_ipc_md.c:140  UCX  ERROR cuMemGetAddressRange(&base, &size, address) failed: invalid device context", "nccl_cuda_error"),
    # uct/cuda/cuda_copy/cuda_copy_ep.c: a named cause keeps its CUDA category
    ("training", f"{_U}    cuda_copy_ep.c:121  UCX  ERROR cuMemcpyAsync(dst, src, length, stream) failed: an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # uct/cuda/gdr_copy/gdr_copy_md.c
    ("training", f"{_U}     gdr_copy_md.c:148  UCX  ERROR gdr_pin_buffer failed. length :2097152 ret:14", "nccl_error"),
    # uct/cuda/gdr_copy/gdr_copy_md.c
    ("training", f"{_U}     gdr_copy_md.c:157  UCX  ERROR gdr_map failed. length :2097152 ret:12", "nccl_error"),
    # uct/rocm/copy/rocm_copy_md.c
    ("training", f"{_U}    rocm_copy_md.c:201  UCX  ERROR hsa_amd_memory_lock failed: HSA_STATUS_ERROR_OUT_OF_RESOURCES", "nccl_cuda_error"),
    # uct/ib/base/ib_device.c uct_ib_device_init: ibv_open_device failed
    ("training", f"{_U}       ib_device.c:562  UCX  ERROR Failed to open mlx5_4: No such device", "nccl_error"),
    # uct/ib/base/ib_device.c uct_ib_handle_async_event: a port event
    ("training", f"{_U}       ib_device.c:323  UCX  ERROR IB Async event on mlx5_2: port error on port 1", "ib_link"),
    # uct/ib/base/ib_device.c: a QP moved to error
    ("training", f"{_U}       ib_device.c:331  UCX  ERROR IB Async event on mlx5_0: local work queue catastrophic error on QPN 0x1a2f", "nccl_error"),
    # uct/ib/base/ib_device.c: a DC target reported an access error
    ("training", f"{_U}       ib_device.c:364  UCX  ERROR IB Async event on mlx5_3: DCT access error on DCTN 0x1c08", "nccl_error"),
    # uct/ib/base/ib_device.c: the HCA failed
    ("training", f"{_U}       ib_device.c:356  UCX  ERROR IB Async event on mlx5_1: local catastrophic error on port 1", "ib_hca_fault"),
    # uct/ib/rdmacm/rdmacm_cm.c: the connection manager failed to resolve the peer
    ("training", f"{_U}      rdmacm_cm.c:612  UCX  ERROR rdma_resolve_route(to addr=10.8.3.40:40121) failed: No such device", "nccl_error"),
    # uct/ib/rdmacm/rdmacm_cm.c: the connection manager's error event on the client side
    ("training", f"{_U}      rdmacm_cm.c:531  UCX  ERROR client: got error event RDMA_CM_EVENT_ADDR_ERROR", "nccl_error"),
    # ucs/debug/debug.c ucs_handle_error: the fault handler's banner
    ("training", "[gpu-k7:48211:0:48211] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x18)", "segfault"),
    # ucs/debug/debug.c
    ("training", "[gpu-k7:48211:0:48230] Caught signal 7 (Bus error: nonexistent physical address)", "process_crash"),
    # ucxx python/ucxx/ucxx/_lib/libucxx.pyx: UCS_ERR_REJECTED as an exception
    ("training", "ucxx._lib.libucxx.UCXRejectedError: Operation rejected by remote peer", "nccl_remote_peer"),
    # ucxx python: UCXError with a timeout status
    ("training", "ucxx._lib.libucxx.UCXError: User-defined limit was reached", "nccl_error"),
    # uct/ib/base/ib_iface.c
    ("training", f"{_U}        ib_iface.c:1204 UCX  ERROR ibv_create_srq() failed: Cannot allocate memory", "nccl_error"),
    # uct/ib/mlx5/dv/ib_mlx5dv_md.c at ERROR level (the object is required, not probed)
    ("training", f"{_U}  ib_mlx5dv_md.c:212  UCX  ERROR mlx5dv_devx_obj_create(CREATE_QP) failed, syndrome 0x2a5bd2: Remote I/O error", "nccl_error"),
    # uct/ib/rdmacm/rdmacm_listener.c
    ("training", f"{_U} rdmacm_listener.c:101  UCX  ERROR rdma_bind_addr(addr=0.0.0.0:13337) failed: Address already in use", "nccl_error"),
    # ucxx libucxx.pyx: UCS_ERR_NOT_CONNECTED
    ("training", "ucxx._lib.libucxx.UCXNotConnectedError: Endpoint is not connected", "nccl_remote_peer"),
    # ucxx: UCS_ERR_UNREACHABLE
    ("training", "ucxx._lib.libucxx.UCXUnreachableError: Destination is unreachable", "nccl_error"),
    # ucxx: UCS_ERR_ENDPOINT_TIMEOUT
    ("training", "ucxx._lib.libucxx.UCXEndpointTimeoutError: Endpoint timeout", "nccl_error"),
    # ucx-py ucp/_libs/exceptions.py: UCS_ERR_MESSAGE_TRUNCATED (the receiver posted less than the sender sent)
    ("training", "ucp._libs.exceptions.UCXMsgTruncated: Message truncated", "nccl_user_error"),
    # ucxx: the same status under its newer name
    ("training", "ucxx._lib.libucxx.UCXMessageTruncatedError: Message truncated", "nccl_user_error"),
    # ucxx python/ucxx/_lib/libucxx.pyx
    ("training", "ucxx._lib.libucxx.UCXConnectionResetError: Connection reset by remote peer", "nccl_remote_peer"),

    # ---- librdmacm (rdma-core) calls as connection-manager users report them
    ("training", "rdma_connect failed: Input/output error", "nccl_error"),
    # librdmacm: address resolution through an interface without RDMA
    ("training", "rdma_resolve_addr returned -1: No such device", "nccl_error"),
    # librdmacm: the queue pair of the CM id could not be created
    ("training", "rdma_create_qp failed: Cannot allocate memory", "nccl_error"),

    # ---- UCC (openucx/ucc) component loggers
    # core/ucc_team.c
    ("training", f"{_U}        ucc_team.c:294  UCC  ERROR No CL teams were created", "nccl_error"),
    # components/cl/basic/cl_basic_team.c
    ("training", f"{_U}   cl_basic_team.c:131  CL_BASIC ERROR no tl teams were created", "nccl_error"),
    # components/tl/ucp/tl_ucp_context.c
    ("training", f"{_U}  tl_ucp_context.c:88   TL_UCP ERROR failed to create ucp worker, Input/output error", "nccl_error"),
    # core/ucc_coll.c
    ("training", f"{_U}        ucc_coll.c:250  UCC  ERROR failed to init collective: No resources are available to initiate the operation", "nccl_error"),
    # core/ucc_context.c
    ("training", f"{_U}     ucc_context.c:370  UCC  ERROR no CL context created in ucc_context_create", "nccl_error"),
    # core/ucc_context.c: the configuration asks for a TL the context lacks
    ("training", f"{_U}     ucc_context.c:240  UCC  ERROR required TL nccl is not part of the context", "nccl_user_error"),
    # components/tl/nccl/tl_nccl_coll.c: ncclCommGetAsyncError reported a failure ("NCCL error %d %s")
    ("training", f"{_U}    tl_nccl_coll.c:77   TL_NCCL ERROR NCCL error 6 remote process exited or there was a network error", "nccl_remote_peer"),
    # components/tl/nccl/tl_nccl_coll.c
    ("training", f"{_U}    tl_nccl_coll.c:77   TL_NCCL ERROR NCCL error 2 unhandled system error (run with NCCL_DEBUG=INFO for details)", "nccl_error"),
    # core/ucc_lib.c: a CL component could not initialise
    ("training", f"{_U}         ucc_lib.c:127  UCC  ERROR lib_init failed for component: hier", "nccl_error"),
    # components/tl/ucp/tl_ucp_sendrecv.h: the peer of a p2p step went away
    ("training", f"{_U}  tl_ucp_sendrecv.h:141 TL_UCP ERROR tag 3; dest 9; team_id 32769; errmsg Connection reset by remote peer", "nccl_remote_peer"),
    # components/tl/ucp/tl_ucp_sendrecv.h: a p2p of a collective failed
    ("training", f"{_U}  tl_ucp_sendrecv.h:141 TL_UCP ERROR tag 17; dest 5; team_id 32768; errmsg Endpoint timeout", "nccl_error"),

    # ---- libfabric (ofiwg/libfabric) provider log lines
    # prov/efa/src/rdm/efa_rdm_pke.c / efa_rdm_cq.c: a completion error with the efa_errno text (efa_errno.h)
    ("training", "libfabric:30412:1731012345::efa:cq:efa_rdm_pke_handle_tx_error():612<warn> err: 103, message: Unresponsive receiver (connection previously established) (4124)", "nccl_error"),
    # prov/efa/src/efa_errno.h
    ("training", "libfabric:30412:1731012345::efa:cq:efa_rdm_cq_poll_ibv_cq():640<warn> Unexpected error when polling ibv cq, err: 113, message: Unreachable remote (never received a response) (15)", "nccl_error"),
    # prov/efa/src/efa_errno.h
    ("training", "libfabric:30412:1731012345::efa:cq:efa_rdm_pke_handle_rx_error():701<warn> err: 107, message: Bad queue pair (QP) number (QP does not exist or is in error state) (9)", "nccl_error"),
    # prov/efa/src/efa_errno.h
    ("training", "libfabric:30412:1731012345::efa:cq:efa_rdm_pke_handle_tx_error():612<warn> err: 22, message: Remote key (RKEY) not registered or does not match remote IOVA (7)", "nccl_error"),
    # prov/efa/src/efa_strerror.c efa_show_help: the long-form help of LOCAL_ERROR_UNREACH_REMOTE
    ("training", "This error is detected locally. The peer is not reachable by the EFA device. This typically indicates one or more misconfigured EC2 instances", "nccl_error"),
    # prov/efa/src/efa_strerror.c: REMOTE_ERROR_BAD_DEST_QPN
    ("training", "This error is detected remotely; typically encountered when the peer process is no longer present", "nccl_remote_peer"),
    # prov/efa/src/efa_strerror.c: ESTABLISHED_RECV_UNRESP
    ("training", "This error is detected locally. The connection was previously established via handshake, which indicates the error is likely due to a hardware failure on the remote peer, or the peer process no longer being present.", "nccl_remote_peer"),
    # prov/efa/src/efa_strerror.c: UNESTABLISHED_RECV_UNRESP, as EFA_WARN prints it
    ("training", "libfabric:30412:1731012345::efa:cq:efa_show_help():91<warn> This error is detected locally. The peer is reachable by the EFA device but libfabric failed to complete a handshake, which indicates the error is likely due to the peer process no longer being present.", "nccl_remote_peer"),
    # prov/efa/src/efa_strerror.c: INVALID_PKT_TYPE_ZCPY_RX (peers of different libfabric versions / settings)
    ("training", "libfabric:30412:1731012345::efa:cq:efa_show_help():97<warn> This error is detected locally. Please consider matching the local and remote libfabric versions, or turning off the zero-copy recv feature by setting FI_EFA_USE_ZCPY_RX=0 in the environment", "nccl_user_error"),
    # libfabric src/hmem.c: the CUDA interface itself failed on a GPU node (GPUDirect RDMA off): no probe
    ("training", "libfabric:30412:1731012345::core:core:ofi_hmem_init():418<warn> Failed to initialize hmem iface FI_HMEM_CUDA: No such device", "nccl_error"),
    # prov/efa/src/efa_mr.c
    ("training", "libfabric:30412:1731012345::efa:mr:efa_mr_reg_ibv_mr():541<warn> Unable to register MR of 2097152 bytes: Bad address, ibv_reg_mr returned 14", "nccl_error"),
    # prov/verbs: VRB_WARN_ERRNO ("<fn>: <strerror> (<errno>)")
    ("training", "libfabric:2231:1731012345::verbs:ep_ctrl:vrb_create_ep():260<warn> rdma_create_ep: No such device (19)", "nccl_error"),
    # prov/verbs: VRB_WARN_ERR with fi_strerror
    ("training", "libfabric:2231:1731012345::verbs:ep_ctrl:vrb_ep_enable():522<warn> ibv_create_qp: Cannot allocate memory (12)", "nccl_error"),
    # prov/verbs
    ("training", "libfabric:2231:1731012345::verbs:mr:vrb_mr_reg_common():120<warn> ibv_reg_mr: Bad address (14)", "nccl_error"),
    # prov/tcp/src/xnet_progress.c xnet_complete_rx: the peer closed the socket
    ("training", "libfabric:9931:1731012345::tcp:ep_data:xnet_complete_rx():1117<warn> msg recv failed ret = -104 (Connection reset by peer)", "nccl_remote_peer"),
    # prov/tcp (tcpx, libfabric 1.1x) process_rx_entry: the errno alone (-ECONNRESET)
    ("training", "libfabric:9931:1731012345::tcp:domain:process_rx_entry():118<warn> msg recv Failed ret = -104", "nccl_remote_peer"),
    # include/rdma/fi_errno.h via an application: fi_strerror of a failed call
    ("training", "fi_cq_sread(): common/shared.c:2301, ret=-5 (Input/output error)", "nccl_error"),
    # fabtests / applications: fi_* returned an error
    ("training", "fi_connect(): common/shared.c:1022, ret=-111 (Connection refused)", "nccl_remote_peer"),

    # ---- aws-ofi-nccl (NET/OFI)
    # src/nccl_ofi_rdma.cpp handle_error_entry with the EFA status text
    ("nccl", "gpu-k7:48211:48300 [3] nccl_ofi_rdma.cpp:1318 NCCL WARN NET/OFI Request 0x7f3c2c0a seq 12 completed with error. RC: 103. Error: 4124 (Unresponsive receiver (connection previously established)). Completed length: 0, Request: {dev: 3, size: 0, state: CREATED, type: SEND}", "nccl_error"),
    # src/nccl_ofi_rdma.cpp
    ("nccl", "gpu-k7:48211:48300 [3] NCCL WARN NET/OFI Fatal: rx buffer recv completed with error", "nccl_error"),
    # src/nccl_ofi_net.cpp
    ("nccl", "gpu-k7:48211:48211 [0] NCCL WARN NET/OFI Couldn't open a fabric access domain. RC: -22, ERROR: Invalid argument", "nccl_error"),
    # src/nccl_ofi_net.cpp: fi_fabric failed
    ("nccl", "gpu-k7:48211:48211 [0] NCCL WARN NET/OFI Couldn't open a fabric provider. RC: -61, ERROR: No data available", "nccl_error"),
    # src/nccl_ofi_sendrecv.cpp: fi_cq_readerr itself failed
    ("nccl", "gpu-k7:48211:48300 [3] NCCL WARN NET/OFI Unable to read from fi_cq_readerr. RC: -5. Error: Input/output error", "nccl_error"),
    # src/nccl_ofi_rdma.cpp
    ("nccl", "gpu-k7:48211:48300 [3] NCCL WARN NET/OFI Unable to register memory (type = 2) for device 3. RC: -14, Error: Bad address", "nccl_error"),
    # src/nccl_ofi_sendrecv.cpp
    ("nccl", "gpu-k7:48211:48300 [3] NCCL WARN NET/OFI Unable to retrieve completion queue entries. RC: -5, ERROR: Input/output error", "nccl_error"),

    # ---- Open MPI (open-mpi/ompi, openpmix/prrte)
    # ompi/mca/pml/ucx/pml_ucx.c PML_UCX_ERROR ("<file>:<line> Error: ...")
    ("training", "[gpu-k7:48211] pml_ucx.c:419  Error: ucp_ep_create(proc=7) failed: Destination is unreachable", "nccl_error"),
    # ompi/mca/pml/ucx/pml_ucx.c
    ("training", "[gpu-k7:48211] pml_ucx.c:477  Error: Failed to resolve UCX endpoint for rank 12", "nccl_error"),
    # ompi/mca/pml/ucx/pml_ucx.c mca_pml_ucx_recv_worker_address: the modex (PMIx) did not hold the peer's address
    ("training", "[gpu-k7:48211] pml_ucx.c:178  Error: Failed to receive UCX worker address: Not found (-13)", "nccl_error"),
    # ompi/mca/pml/ucx/pml_ucx.c mca_pml_ucx_isend: the peer went away
    ("training", "[gpu-k7:48211] pml_ucx.c:812  Error: ucx send failed: Connection reset by remote peer", "nccl_remote_peer"),
    # ompi/mca/pml/ucx/pml_ucx.c
    ("training", "[gpu-k7:48211] pml_ucx.c:812  Error: ucx send failed: Endpoint timeout", "nccl_error"),
    # ompi/mca/pml/ucx/pml_ucx_request.c
    ("training", "[gpu-k7:48211] pml_ucx_request.c:58  Error: send request failed: Endpoint is not connected", "nccl_remote_peer"),
    # opal/mca/btl/tcp/btl_tcp_endpoint.c mca_btl_tcp_endpoint_complete_connect
    ("training", "[gpu-k7][[43021,1],5][btl_tcp_endpoint.c:803:mca_btl_tcp_endpoint_complete_connect] connect() to 10.8.3.21 failed: Connection refused (111)", "nccl_remote_peer"),
    # opal/mca/btl/tcp/btl_tcp_endpoint.c: the local route
    ("training", "[gpu-k7][[43021,1],5][btl_tcp_endpoint.c:803:mca_btl_tcp_endpoint_complete_connect] connect() to 10.8.3.21 failed: No route to host (113)", "nccl_error"),
    # opal/mca/btl/tcp/btl_tcp_frag.c
    ("training", "[gpu-k7][[43021,1],2][btl_tcp_frag.c:130:mca_btl_tcp_frag_send] mca_btl_tcp_frag_send: writev failed: Broken pipe (32)", "nccl_remote_peer"),
    # opal/mca/btl/tcp/help-mpi-btl-tcp.txt [client connect fail]
    ("training", "WARNING: Open MPI failed to TCP connect to a peer MPI process.  This should not happen.", "nccl_error"),
    # opal/mca/btl/openib/btl_openib_component.c handle_wc
    ("training", "[[43021,1],6][btl_openib_component.c:3644:handle_wc] from gpu-k7 to: gpu-k9 error polling HP CQ with status WORK REQUEST FLUSHED ERROR status number 5 for wr_id 2b3c40 opcode 0  vendor error 244 qp_idx 1", "nccl_error"),
    # opal/mca/btl/openib/help-mpi-btl-openib.txt
    ("training", "The OpenFabrics (openib) BTL failed to initialize while trying to allocate some locked memory.", "nccl_error"),
    # ompi/mca/mtl/ofi/mtl_ofi.h MTL_OFI_RETRY_UNTIL_DONE / send path
    ("training", "[gpu-k7:48211] mtl_ofi.h:594: fi_tsend failed: Input/output error(-5)", "nccl_error"),
    # ompi/mca/mtl/ofi/mtl_ofi.h ompi_mtl_ofi_progress: fi_cq_readerr itself failed
    ("training", "[gpu-k7:48211] mtl_ofi.h:231: Error returned from fi_cq_readerr: Input/output error(-5).", "nccl_error"),
    # ompi/mca/coll/ofi (COLL_OFI_ERROR): the provider's error code of a failed completion
    ("training", "[gpu-k7:48211] coll_ofi_module.c:210 fi_cq_readerr: (provider err_code = 4124)", "nccl_error"),
    # ompi/mca/mtl/ofi/mtl_ofi.h
    ("training", "[gpu-k7:48211] mtl_ofi.h:520: *** The Open MPI OFI MTL is aborting the MPI job (via exit(3)).", "process_crash"),
    # ompi/mpi/help-mpi-api.txt [mpi-abort]
    ("training", "MPI_ABORT was invoked on rank 3 in communicator MPI_COMM_WORLD", "process_crash"),
    # orte/prrte help text: a rank ended by a signal
    ("training", "mpirun noticed that process rank 5 with PID 30441 on node gpu-k9 exited on signal 9 (Killed).", "process_killed"),
    # prrte help text
    ("training", "prterun noticed that process rank 2 with PID 0 on node gpu-k3 exited on signal 11 (Segmentation fault).", "segfault"),
    # orte/prrte help-errmgr-base.txt
    ("training", "Primary job  terminated normally, but 1 process returned a non-zero exit code. Per user-direction, the job has been aborted.", "process_exit_nonzero"),
    # orte/prrte help-errmgr-base.txt [normal-termination-but]
    ("training", "mpirun detected that one or more processes exited with non-zero status, thus causing the job to be terminated. The first process to do so was:", "process_exit_nonzero"),
    # prrte help-errmgr-base.txt
    ("training", "PRTE has lost communication with a remote daemon.", "nccl_remote_peer"),
    # opal/mca/pmix: the PMIx server lost a client
    ("training", "[gpu-k7:48200] PMIX ERROR: UNREACHABLE in file server/pmix_server.c at line 2198", "nccl_error"),
    # ompi/mca/spml/ucx/spml_ucx.c SPML_UCX_ERROR (OpenSHMEM over UCX)
    ("training", "[gpu-k7:48211] spml_ucx.c:721  Error: ucp_ep_create(proc=3) failed: Destination is unreachable", "nccl_error"),
    # ompi/mca/osc/ucx/osc_ucx_comm.c OSC_UCX_ERROR (one-sided over UCX)
    ("training", "[gpu-k7:48211] osc_ucx_comm.c:262  Error: ucp_put_nbi failed: Endpoint timeout", "nccl_error"),
    # ompi/errhandler/errhandler_predefined.c: the MPI_ERRORS_ARE_FATAL banner (the real splits file it as a crash)
    ("training", "[gpu-k7:48211] *** An error occurred in MPI_Allreduce", "process_crash"),
    # ompi/errhandler/errhandler_predefined.c with MPI_ERR_TRUNCATE (ompi/errhandler/errcode.c text)
    ("training", "[gpu-k7:48211] *** MPI_ERR_TRUNCATE: message truncated", "nccl_user_error"),
    # ULFM (ompi/errhandler) MPI_ERR_PROC_FAILED: a peer process died
    ("training", "[gpu-k7:48211] *** MPI_ERR_PROC_FAILED: Process Failure", "nccl_remote_peer"),

    # MPICH ch4 OFI netmod (Cray MPICH, Intel MPI) MPIDI_OFI_ERR: a completion error with the CXI return code
    ("training", "MPIDI_OFI_handle_cq_error(1062): OFI poll failed (ofi_events.c:1064:MPIDI_OFI_handle_cq_error:Input/output error - UNDELIVERABLE)", "nccl_error"),
    # MPICH ch4 OFI netmod: fi_getinfo found no provider
    ("training", "MPIDI_OFI_mpi_init_hook(1512): OFI addrinfo() failed (ofi_init.c:1512:MPIDI_OFI_mpi_init_hook:No data available)", "nccl_error"),
    # MPICH ch4 OFI netmod: fi_endpoint failed
    ("training", "MPIDI_OFI_create_endpoint(2210): OFI endpoint open failed (ofi_init.c:2210:MPIDI_OFI_create_endpoint:Invalid argument)", "nccl_error"),
    # ---- Gloo (facebookincubator/gloo) via PyTorch ProcessGroupGloo
    # gloo/transport/tcp/pair.cc GLOO_ENFORCE_LE in prepareRead: sizes differ between ranks
    ("training", "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/pair.cc:446] op.preamble.length <= op.nbytes. 8773632 vs 8386560", "nccl_user_error"),
    # gloo/transport/tcp/device.cc: GLOO_SOCKET_IFNAME names no interface
    ("training", "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:83] ifa != nullptr. Unable to find address for: eth9", "nccl_user_error"),
    # gloo/transport/tcp/device.cc CreateDevice by hostname: the host name resolves to no bindable address
    ("training", "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:209] rp != nullptr. Unable to find address for: trainer-7.internal", "nccl_user_error"),
    # the same enforce as some PyTorch builds surface it (message only)
    ("training", "RuntimeError: Unable to find address for: ens9f1np1", "nccl_user_error"),
    # gloo/transport/tcp/unbound_buffer.cc waitRecv
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for recv operation to complete", "nccl_timeout"),
    # gloo/transport/tcp/unbound_buffer.cc waitSend
    ("training", "RuntimeError: [/opt/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:133] Timed out waiting 60000ms for send operation to complete", "nccl_timeout"),
    # gloo/transport/tcp/pair.cc read(): sync-mode timeout
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:612] Read timeout [10.8.3.21]:48211", "nccl_timeout"),
    # gloo/transport/tcp/pair.cc write()
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:388] Write timeout [10.8.3.22]:50123", "nccl_timeout"),
    # gloo/transport/tcp/pair.cc write(): unexpected errno
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:411] writev [10.8.3.23]:41009: Broken pipe", "nccl_remote_peer"),
    # gloo/transport/tcp/pair.cc handleConnecting
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.8.3.24]:47210: Connection refused", "nccl_remote_peer"),
    # gloo/transport/tcp/pair.cc handleConnecting: the local route
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.8.3.25]:47211: No route to host", "nccl_error"),
    # gloo/transport/tcp/pair.cc verifyConnected
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:963] Socket closed [10.8.3.26]:33180", "nccl_remote_peer"),
    # gloo/transport/tcp/pair.cc setSync
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:131] Socket unexpectedly closed [10.8.3.27]:33181", "nccl_remote_peer"),
    # gloo/transport/tcp/pair.cc read(): EOF
    ("training", "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer [10.8.3.28]:62015", "nccl_remote_peer"),
    # gloo/transport/tcp/pair.cc read()
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:575] Read error [10.8.3.29]:51022: Connection reset by peer", "nccl_remote_peer"),
    # gloo/transport/tcp/pair.cc listen()
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:168] bind: Address already in use", "nccl_error"),
    # gloo/transport/ibverbs/pair.cc: completion in error
    ("training", "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/ibverbs/pair.cc:470] wc->status == IBV_WC_SUCCESS. 12 vs 0. Memory region send for slot 0: transport retry counter exceeded", "nccl_error"),
    # gloo/rendezvous/prefix_store / file_store: the store timed out
    ("training", "RuntimeError: [../third_party/gloo/gloo/rendezvous/file_store.cc:132] Wait timeout for key(s): [rank_3]", "nccl_timeout"),
    # gloo/transport/tcp/pair.cc handleListening
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:732] accept: Too many open files", "nccl_error"),

    # ---- NVSHMEM (the layer under DeepEP)
    # src/host/transport/transport.cpp nvshmemi_transport_init (NVSHMEMI_ERROR_PRINT with the function name)
    ("training", "/opt/nvshmem_src/src/host/transport/transport.cpp:nvshmemi_transport_init:287: Unable to initialize any transports. returning error.", "nccl_error"),
    # src/host/init/init.cu
    ("training", "/opt/nvshmem_src/src/host/init/init.cu:nvshmemi_check_state_and_init:1089: nvshmem initialization failed, exiting", "nccl_error"),
    # src/host/init/init.cu (device-only state init: fprintf without a location)
    ("training", "nvshmem initialization failed, exiting", "nccl_error"),
    # src/host/init/init.cu: an NVSHMEM call before nvshmem_init (the caller's order)
    ("training", "nvshmem API called before nvshmem_init", "nccl_user_error"),
    # src/host/init/init.cu: cudaGetDevice failed inside the library
    ("training", "nvshmem cuda device query failed, exiting", "nccl_cuda_error"),
    # src/modules/transport/ibrc/ibrc.cpp NVSHMEMI_NZ_ERROR_JMP
    ("training", "/opt/nvshmem_src/src/modules/transport/ibrc/ibrc.cpp:418: non-zero status: 110 ibv_modify_qp failed", "nccl_error"),
    # src/modules/transport/ibgda/ibgda.cpp NVSHMEMI_NULL_ERROR_JMP
    ("training", "/opt/nvshmem_src/src/modules/transport/ibgda/ibgda.cpp:2401: NULL value ibv_create_cq for recv_cq failed.", "nccl_error"),
    # src/host/transport/transport.cpp
    ("training", "/opt/nvshmem_src/src/host/transport/transport.cpp:420: non-zero status: 7 connect EPS failed", "nccl_error"),

    # ---- DeepEP (deepseek-ai/DeepEP): csrc/kernels/exception.cuh EPException("CUDA" | "Assertion", file, line, what);
    # a CUDA error it throws keeps the CUDA family (the real splits label it so)
    ("training", "RuntimeError: Failed: CUDA error /workspace/DeepEP/csrc/kernels/internode.cu:1421 'invalid argument'", "cuda_launch_failure"),
    # csrc/kernels/exception.cuh: a named CUDA cause keeps its category
    ("training", "RuntimeError: Failed: CUDA error /workspace/DeepEP/csrc/deep_ep.cpp:212 'an illegal memory access was encountered'", "cuda_illegal_memory_access"),
    # csrc/kernels/exception.cuh EP_HOST_ASSERT
    ("training", "RuntimeError: Failed: Assertion error /workspace/DeepEP/csrc/deep_ep.cpp:598 'num_rdma_bytes <= std::numeric_limits<int>::max()'", "nccl_error"),
    # csrc/deep_ep.cpp: CPU wait for the peers' counters
    ("training", "RuntimeError: DeepEP error: CPU recv timeout", "nccl_timeout"),

    # ---- NIXL (ai-dynamo/nixl)
    # src/api/python bindings: nixl_status_t as an exception
    ("training", "nixl._bindings.nixlRemoteDisconnectError: NIXL_ERR_REMOTE_DISCONNECT", "nccl_remote_peer"),
    # src/plugins/ucx/ucx_utils.cpp nixlUcxEp::sendAmCallback via NIXL_ERROR: the fabric failed the send
    ("training", "E1108 03:04:05.667788  9912 ucx_utils.cpp:214] UCX AM send failed with status -80 (Endpoint timeout)", "nccl_error"),
    # src/plugins/ucx/ucx_utils.cpp: the peer agent went away
    ("training", "E1108 03:04:05.667799  9912 ucx_utils.cpp:214] UCX AM send failed with status -25 (Connection reset by remote peer)", "nccl_remote_peer"),
    # src/plugins/ucx/ucx_utils.cpp nixlUcxContext: ucp_init failed (thrown std::runtime_error)
    ("training", "RuntimeError: Failed to create UCX context: No such device", "nccl_error"),
    # src/modules/transport/ibrc/ibrc.cpp
    ("training", "/opt/nvshmem_src/src/modules/transport/ibrc/ibrc.cpp:1433: non-zero status: 7 ep_connect failed", "nccl_error"),
    # DeepEP csrc/kernels/internode.cu: an NVLink receiver timed out
    ("training", "DeepEP dispatch NVL receiver timeout, channel: 3, RDMA: 0, nvl: 2, src NVL: 5, head: 120, tail: 119", "nccl_timeout"),
    # NIXL nixl_types.h: the request itself was invalid
    ("training", "nixl._bindings.nixlInvalidParamError: NIXL_ERR_INVALID_PARAM", "nccl_user_error"),
    # NIXL: a transfer that could not be posted
    ("training", "nixl._bindings.nixlNotPostedError: NIXL_ERR_NOT_POSTED", "nccl_error"),

    # ---- Mooncake transfer engine (kvcache-ai/Mooncake)
    # mooncake-transfer-engine/src/transport/rdma_transport/worker_pool.cpp: a slice's work completion failed
    ("training", "E1108 03:04:05.667811  4410 worker_pool.cpp:290] Worker: Process failed for slice (opcode: 0, source_addr: 0x7f2a40000000, length: 65536, dest_addr: 140245, local_nic: mlx5_1, peer_nic: 10.8.3.40:12001@mlx5_3, dest_rkey: 8812, retry_cnt: 0): transport retry counter exceeded", "nccl_error"),
    # mooncake-transfer-engine/src/transport/rdma_transport/rdma_endpoint.cpp
    ("training", "E1108 03:04:05.667822  4410 rdma_endpoint.cpp:277] Failed to modify QP to RTR, check mtu, gid, peer lid, peer qp num: Connection timed out [110]", "nccl_error"),
    # mooncake-transfer-engine/src/transport/rdma_transport/rdma_context.cpp
    ("training", "E1108 03:04:05.667833  4410 rdma_context.cpp:211] Failed to register memory 0x7f2a40000000: Bad address [14]", "nccl_error"),
    # mooncake-transfer-engine/src/transfer_metadata_plugin.cpp: the handshake with the peer failed
    ("training", "E1108 03:04:05.667844  4410 transfer_metadata_plugin.cpp:655] SocketHandShakePlugin: connect()10.8.3.40:12001: Connection refused [111]", "nccl_remote_peer"),

    # ---- NVIDIA SHARP (libsharp_coll, under the NCCL SHARP plugin / CollNet)
    # libsharp_coll with a host-only log prefix
    ("training", "[gpu-b7-12] ERROR sharp_get_job_data_len failed: Job error(-35)", "nccl_error"),
    # libsharp_coll
    ("training", "[gpu-b7-12] ERROR SHArP Job init error: No reservation", "nccl_error"),
    # the caller's report (sharp_coll_strerror)
    ("training", "sharp_coll_init failed: Cannot create SHARP job", "nccl_error"),

    # ---- RCCL / MSCCL (ROCm)
    # rccl src/include/checks.h CUDACHECK in HIP builds
    ("nccl", "gpu-k7:48211:48300 [2] /opt/rccl/src/transport/p2p.cc:310 NCCL WARN Cuda failure 'invalid device context'", "nccl_cuda_error"),
    # rccl src/include/checks.h
    ("nccl", "gpu-k7:48211:48300 [2] NCCL WARN HIP failure 'hipErrorPeerAccessUnsupported'", "nccl_cuda_error"),
    # rccl src/misc/msccl/msccl_parser.cc: the job's MSCCL algorithm XML is rejected (ncclInvalidUsage)
    ("nccl", "gpu-k7:48211:48211 [0] msccl_parser.cc:161 NCCL WARN MSCCL: ngpus set in the MSCCL algo (16) doesn't match the communicator ngpus (8)", "nccl_user_error"),
    # rccl msccl_parser.cc
    ("nccl", "gpu-k7:48211:48211 [0] NCCL WARN MSCCL: protocol LL64 is not supported.", "nccl_user_error"),
    # rccl msccl_setup.cc mscclLoadAlgo
    ("nccl", "gpu-k7:48211:48211 [0] msccl_setup.cc:58 NCCL WARN MSCCL: MSCCL_MAX_NUM_ALGOS (64) limit reached", "nccl_user_error"),
    # rccl msccl_parser.cc
    ("nccl", "gpu-k7:48211:48211 [0] NCCL WARN MSCCL: too many thread blocks are requested. Max thread blocks: 108", "nccl_user_error"),
    # rccl msccl_setup.cc: an internal inconsistency (ncclInternalError)
    ("nccl", "gpu-k7:48211:48211 [0] msccl_setup.cc:301 NCCL WARN MSCCL: something went wrong. Max allowed count is 0", "nccl_error"),
    # rccl src/transport/net_ib.cc (shared with NCCL)
    ("nccl", "gpu-k7:48211:48300 [2] NCCL WARN NET/IB : Got completion from peer 10.8.3.40<41002> with error 12, opcode 0, len 0, vendor err 129 (Send)", "nccl_error"),
]

# (log source, line): INFO / WARN / DEBUG siblings from the same sources, capability probes and fall-backs; no fault
BENIGN: list[tuple[str, str]] = [
    # ucp/core/ucp_context.c: a transport or device name the user asked for is absent (UCX falls back)
    ("training", f"{_U}     ucp_context.c:1105 UCX  WARN  transport 'rc_mlx5' is not available, please use one or more of: cma, posix, self, sysv, tcp"),
    # ucp/core/ucp_context.c
    ("training", f"{_U}     ucp_context.c:1087 UCX  WARN  network device 'mlx5_4:1' is not available, please use one or more of: 'eth0'(tcp), 'lo'(tcp)"),
    # ucs/config/parser.c
    ("training", f"{_U}          parser.c:2041 UCX  WARN  unused environment variable: UCX_RNDV_SCHEME"),
    # ucs/datastruct/mpool.c: leak report at teardown
    ("training", f"{_U}           mpool.c:55   UCX  WARN  object 0x2a3f940 {{flags:0x20040 send length 8}} was not returned to mpool ucp_requests"),
    # uct/ib/base/ib_md.c
    ("training", f"{_U}           ib_md.c:1127 UCX  WARN  IB: ibv_fork_init() was disabled or failed, yet a fork() has been issued."),
    # ucp/core/ucp_worker.c: the transport summary line
    ("training", f"{_U}      ucp_worker.c:1866 UCX  INFO  ucp_context_0 intra-node cfg#2 tag(self/memory cma/memory rc_mlx5/mlx5_0:1) rma(rc_mlx5/mlx5_0:1)"),
    # uct/ib/base/ib_iface.c: a probe at DEBUG level
    ("training", f"{_U}          uct_md.c:101  UCX  DEBUG failed to query dc_mlx5 resources: Unsupported operation"),
    # uct/cuda/base/cuda_md.c: no GPU in a CPU-only container
    ("training", f"{_U}         cuda_md.c:153  UCX  DEBUG cuInit failed: no CUDA-capable device is detected"),
    # ucs/sys/sock.c: a retried connect at DEBUG
    ("training", f"{_U}            sock.c:312  UCX  DEBUG connect(fd=41, dest_addr=10.8.3.21:45123) returned Connection refused, retrying"),
    # ucp/core/ucp_ep.c: an endpoint closed at shutdown
    ("training", f"{_U}          ucp_ep.c:1444 UCX  DIAG  ep 0x7f11aa0b4300: closed by remote peer (flush mode)"),
    # ucp/wireup: the selected lanes, debug
    ("training", f"{_U}          wireup.c:1300 UCX  DEBUG ep 0x7f11aa0b4400: selected lane[0]: tcp/eth0 md[1] -> addr[0] rma_bw#0 am am_bw#0"),
    # ucs/debug/log.c: a memory-hook notice
    ("training", f"{_U}    memtype_cache.c:64   UCX  WARN  memtype_cache is disabled because cuda memory hooks are not installed"),
    # UCC loggers: WARN-level notices about an optional component
    ("training", f"{_U}     ucc_context.c:293  UCC  WARN  failed to create tl context for sharp"),
    # components/cl/basic
    ("training", f"{_U} cl_basic_context.c:23   CL_BASIC WARN  TL UCP context is not available, CL BASIC can't proceed"),
    # core/ucc_context.c
    ("training", f"{_U}     ucc_context.c:362  UCC  WARN  failed to create cl context for hier, skipping"),
    # core/ucc_team.c: INFO
    ("training", f"{_U}        ucc_team.c:451  UCC  INFO  team 0x55d1 created: size 16, tls: ucp nccl"),
    # libfabric core: provider registration
    ("training", "libfabric:30412:1731012345::core:core:ofi_register_provider():530<info> registering provider: efa (122.0)"),
    # libfabric core: an optional provider library missing (dlopen probe)
    ("training", "libfabric:30412:1731012345::core:core:ofi_load_dl_prov():661<warn> dlopen(/usr/lib64/libfabric/libpsm3-fi.so): libpsm3-fi.so: cannot open shared object file: No such file or directory"),
    # libfabric core/hmem: an absent accelerator runtime is a probe
    ("training", "libfabric:30412:1731012345::core:core:ofi_hmem_init():418<warn> Failed to initialize hmem iface FI_HMEM_ZE: No data available"),
    # libfabric src/hmem_rocr.c
    ("training", "libfabric:30412:1731012345::core:core:rocr_hmem_dl_init():1012<warn> Failed to dlopen libhsa-runtime64.so"),
    # libfabric src/hmem_ze.c
    ("training", "libfabric:30412:1731012345::core:core:ze_hmem_dl_init():640<warn> Failed to dlopen libze_loader.so"),
    # libfabric src/hmem_neuron.c
    ("training", "libfabric:30412:1731012345::core:core:neuron_hmem_init():97<warn> Failed to find libnrt.so, is the Neuron runtime installed?"),
    # libfabric prov/efa: a set-up notice
    ("training", "libfabric:30412:1731012345::efa:core:efa_hmem_info_check_p2p_support_cuda():166<info> Peer to peer support is enabled for FI_HMEM_CUDA"),
    # libfabric core: the monitor selection
    ("training", "libfabric:30412:1731012345::core:mr:ofi_uffd_init():669<warn> syscall/userfaultfd Operation not permitted"),
    # aws-ofi-nccl: start-up INFO lines
    ("nccl", "gpu-k7:48211:48211 [0] NCCL INFO NET/OFI Initializing aws-ofi-nccl 1.13.2"),
    # aws-ofi-nccl
    ("nccl", "gpu-k7:48211:48211 [0] NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct (found 4 nics)"),
    # aws-ofi-nccl
    ("nccl", "gpu-k7:48211:48211 [0] NCCL INFO NET/OFI Using Libfabric version 1.22"),
    # aws-ofi-nccl: a provider that is not tried
    ("nccl", "gpu-k7:48211:48211 [0] NCCL INFO NET/OFI No eligible providers were found, falling back to the next plugin"),
    # Open MPI pml_ucx: versions and selection at verbosity
    ("training", "[gpu-k7:48211] pml_ucx.c:208 mca_pml_ucx_open: UCX version 1.17.0"),
    # Open MPI common_ucx
    ("training", "[gpu-k7:48211] common_ucx.c:184 using OPAL memory hooks as external events"),
    # Open MPI mca base: a component registered
    ("training", "[gpu-k7:48211] mca: base: components_register: found loaded component ucx"),
    # orte/prrte show_help aggregation after MPI_ABORT
    ("training", "[gpu-k7:48205] 7 more processes have sent help message help-mpi-api.txt / mpi-abort"),
    # Open MPI help text continuation
    ("training", "You may or may not see output from other processes, depending on exactly when Open MPI kills them."),
    # ompi/mca/coll/hcoll coll_hcoll_module.c HCOL_ERROR: HCOLL finds no HCA, Open MPI disables coll/hcoll and goes on
    ("training", "[gpu-k7:48211] Error: ../../../../../ompi/mca/coll/hcoll/coll_hcoll_module.c:312 - mca_coll_hcoll_comm_query() Hcol library init failed"),
    # HCOLL (HPC-X) the advice printed with it
    ("training", "[LOG_CAT_ML] You must specify a valid HCA device by setting:"),
    # opal/mca/btl/openib help-mpi-btl-openib-cpc-base.txt: openib skips a port, another BTL carries the traffic
    ("training", "No OpenFabrics connection schemes reported that they were able to be used on a specific port.  As such, the openib BTL (OpenFabrics support) will be disabled for this port."),
    # Open MPI btl_tcp: an interface skipped
    ("training", "[gpu-k7:48211] btl:tcp: Attempting to bind to AF_INET port 1024"),
    # PyTorch ProcessGroupGloo: no interface hint, fall-back to loopback
    ("training", "[W ProcessGroupGloo.cpp:694] Warning: Unable to resolve hostname to a (local) address. Using the loopback address as fallback. Manually set the network interface to bind to with GLOO_SOCKET_IFNAME. (function operator())"),
    # PyTorch ProcessGroupGloo
    ("training", "[Gloo] Rank 3 is connected to 7 peer ranks. Expected number of connected peer ranks is : 7"),
    # NVSHMEM INFO
    ("training", "gpu-k7:48211:48211 [0] NVSHMEM INFO NVSHMEM_TEAM_SHARED: start=0, stride=1, size=8"),
    # NVSHMEM: the IBGDA module notes the device list
    ("training", "/opt/nvshmem_src/src/modules/transport/ibgda/ibgda.cpp 4796 End - Enumerating IB devices in the system"),
    # NVSHMEM transport.cpp: one transport of several could not start (the next is tried; "Unable to initialize any
    # transports" is the failure)
    ("training", "/opt/nvshmem_src/src/host/transport/transport.cpp:nvshmemi_transport_init:282: init failed for transport: IBGDA"),
    # NVSHMEM: GDRCopy is optional
    ("training", "/opt/nvshmem_src/src/modules/transport/common/transport_gdr_common.cpp 26 GDRCopy library not found. disabling GDRCopy."),
    # NVSHMEM transport_ib_common.h: an address family filter
    ("training", "/opt/nvshmem_src/src/modules/transport/common/transport_ib_common.h 138 NET/IB: Ip address '::' is invalid for family AF_INET, ignoring address"),
    # DeepEP: buffer configuration
    ("training", "DeepEP buffer: num_nvl_bytes=2147483648, num_rdma_bytes=1073741824, low_latency_mode=True"),
    # NIXL INFO
    ("training", "I1108 03:04:05.667700  9912 nixl_agent.cpp:140] Initialized NIXL agent: decode-3"),
    # NIXL ucx_utils.cpp: an old UCX (NIXL_WARN)
    ("training", "W1108 03:04:05.667700  9912 ucx_utils.cpp:356] UCX version is less than 1.19, CUDA support is limited, including the lack of support for multi-GPU within a single process."),
    # NIXL: a released request
    ("training", "nixl request 0x7f11 released with status NIXL_ERR_CANCELED"),
    # Mooncake INFO
    ("training", "I1108 03:04:05.667700  4410 rdma_context.cpp:126] RDMA device: mlx5_1, LID: 0, GID: (GID_Index 3) 00:00:00:00:00:00:00:00:00:00:ff:ff:0a:08:03:02"),
    # Mooncake: the metadata server answered
    ("training", "I1108 03:04:05.667700  4410 transfer_engine.cpp:61] Transfer Engine starting. Server: 10.8.3.2:12001, Metadata: etcd://10.8.3.1:2379"),
    # RCCL: configuration advice printed as WARN
    ("nccl", "gpu-k7:48211:48211 [0] /opt/rccl/src/init.cc:141 NCCL WARN NUMA auto balancing enabled which can lead to variability in the RCCL performance! Disable by \"sudo sysctl kernel.numa_balancing=0\""),
    # rccl src/init.cc: MSCCL++ not built in (printed through WARN on every rank)
    ("nccl", "gpu-k7:48211:48211 [0] /opt/rccl/src/init.cc:2131 NCCL WARN MSCCL++: Feature not enabled. ENABLE_MSCCLPP must be defined at compile-time to enable this feature."),
    # rccl src/init.cc
    ("nccl", "gpu-k7:48211:48211 [0] /opt/rccl/src/init.cc:2127 NCCL WARN MSCCL++: Cannot enable MSCCL++; environment is not MSCCL compatible"),
    # rccl src/init.cc
    ("nccl", "gpu-k7:48211:48211 [0] init.cc:2124 NCCL WARN MSCCL++: Cannot enable MSCCL++ on gfx90a:sramecc+:xnack- architecture"),
    # rccl src/rccl_wrap.cc: tuning table for the arch missing, defaults used
    ("nccl", "gpu-k7:48211:48211 [0] rccl_wrap.cc:412 NCCL WARN LL cutoff points not detected for a supported arch gfx942"),
    # rccl msccl_parser.cc: an algorithm wants more channels than the communicator has (a warning, loading goes on)
    ("nccl", "gpu-k7:48211:48211 [0] msccl_parser.cc:233 NCCL WARN MSCCL: number of desired channels (32) is more than possible ones (16)"),
    # RCCL / MSCCL: INFO
    ("nccl", "gpu-k7:48211:48211 [0] NCCL INFO MSCCL: Initialization finished, localSize 8"),
    # SHARP INFO
    ("training", "[gpu-k7:0:48211 - context.c:601][2026-11-08 03:04:05] INFO job (ID: 4410) resource request quota: ( osts:0 user_data_per_ost:0 max_groups:0 max_qps:1 max_group_channels:1, num_trees:1)"),
    # HPC-X UCX: library banner
    ("training", f"{_U}      ucp_context.c:2190 UCX  INFO  Version 1.17.0 (loaded from /opt/hpcx/ucx/lib/libucp.so.0)"),
    # UCX: protocol selection table line
    ("training", f"{_U}   ucp_proto_select.c:300 UCX  INFO  +---------------+-----------------------------------------------+"),
    # uct/ib/base/ib_device.c: a bonded device without a PCI id
    ("training", f"{_U}       ib_device.c:476  UCX  WARN  failed to get the pci bus id for device 'mlx5_bond_0'"),
    # uct/ib/base/ib_device.c: port and subnet-manager notices (WARN level)
    ("training", f"{_U}       ib_device.c:340  UCX  WARN  IB Async event on mlx5_0: port active on port 1"),
    # uct/ib/base/ib_device.c
    ("training", f"{_U}       ib_device.c:340  UCX  WARN  IB Async event on mlx5_2: client reregistration on port 1"),
    # uct/ib/base/ib_device.c (DEBUG level)
    ("training", f"{_U}       ib_device.c:317  UCX  DEBUG IB Async event on mlx5_0: SRQ-attached QP 0x1a2 was flushed"),
    # ucxx: a request cancelled at shutdown
    ("training", "ucxx._lib.libucxx.UCXCanceledError: Request canceled"),
    # ucx-py: a request cancelled at shutdown
    ("training", "ucp._libs.exceptions.UCXCanceled: <[Recv #003] ep: 0x7f3a1c0, tag: 0x2a, nbytes: 8, type: <class 'numpy.ndarray'>>: "),
]


@pytest.mark.parametrize(("source", "line", "category"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)


# How launchers and wrappers put a process's line on the page: torchrun's rank tag, Ray's worker tag, pdsh's host
# tag, Open MPI's --tag-output
WRAPPER_PREFIXES: list[str] = ["[rank3]: ", "(RayWorkerWrapper pid=4410) ", "gpu-k7: ", "[1,3]<stderr>:"]


@pytest.mark.parametrize("prefix", WRAPPER_PREFIXES)
def test_format_keeps_its_category_behind_each_wrapper(classifier: Classifier, prefix: str) -> None:
    """No F7 rule anchors too hard: every format and benign sibling reads the same behind a launcher's prefix."""
    wrong = [(line, found and found.rule_id) for source, line, category in FORMATS
             if (found := classifier.classify(prefix + line, source)) is None or found.category != category]
    wrong += [(line, found.rule_id) for source, line in BENIGN
              if (found := classifier.classify(prefix + line, source)) is not None]
    assert not wrong, wrong


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_look_alike_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found and found.rule_id, line)


def test_no_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, _c in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0

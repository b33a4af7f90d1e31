/* entry_pairs_canary: a host stub (shaped as nvcc's <name>.cudafe1.stub.c) that registers a warden
   entry instantiated on examples::fake, while fake_cuda.ptx defines it on examples::other: the
   passes disagree, and scripts/entry-pairs must say so. */
static void __nv_cudaEntityRegisterCallback(void **__T1){__cudaRegisterEntry(__T1, ((void ( *)(int))warden::backend::program_entry< ::examples::fake, int>), _ZN6warden7backend13program_entryIN8examples4fakeEiEEvT0_, -1);}

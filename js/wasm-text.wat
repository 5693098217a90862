;; The decoder of js/wasm-text.js: turns the text form of an embedded .wasm back into its bytes,
;; as a WebAssembly loop (the same loop in JavaScript took a cold process 8 ms for the verdict
;; module, most of it interpreted). scripts/build-pkg.mjs assembles this file with binaryen's
;; wasm-as and checks that js/wasm-text.js holds those bytes.
;;
;; Memory (given by the caller): bytes 0-383 map a code to its byte: [c] for a one-character
;; code c (below '|'), [128 + c] for c after the prefix '|', [256 + c] after '}'. The text's
;; characters (ASCII) from `src`; the bytes go to `dst` up to `end` (> dst).
(module
  (import "m" "m" (memory 1))
  (func (export "d") (param $src i32) (param $dst i32) (param $end i32)
    (local $c i32)
    (loop $next
      (local.set $c (i32.load8_u (local.get $src)))
      (if (i32.ge_u (local.get $c) (i32.const 124))
        (then
          ;; '|' (124) or '}' (125), then a character: 128 + it or 256 + it
          (local.set $c (i32.add (i32.shl (i32.sub (local.get $c) (i32.const 123)) (i32.const 7))
                                 (i32.load8_u offset=1 (local.get $src))))
          (local.set $src (i32.add (local.get $src) (i32.const 1)))))
      (local.set $src (i32.add (local.get $src) (i32.const 1)))
      (i32.store8 (local.get $dst) (i32.load8_u (local.get $c)))
      (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
      (br_if $next (i32.lt_u (local.get $dst) (local.get $end))))))

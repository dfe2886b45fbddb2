//! One pair of tests per rule the spec states in `spec/rules.yaml` from the TF Adapter pages:
//! a config that triggers the rule and a close neighbour that does not.
//! The seed rules (cache, memory policy) are tested elsewhere.

use cann_config::{parse_config, validate, Product, Release, Target};

/// Rules that fire for `yaml` on an Atlas A2 training server with the newest release.
fn fires(yaml: &str, rule: &str) -> bool {
    let file = match parse_config(yaml) {
        Ok(f) => f,
        Err(e) => panic!("test config does not parse: {e:?}\n{yaml}"),
    };
    assert!(
        file.diagnostics
            .iter()
            .all(|d| d.rule.is_some() || !matches!(d.severity, cann_config::meta::Severity::Error)),
        "test config has reading errors: {:?}\n{yaml}",
        file.diagnostics
    );
    let target = Target {
        product: Product::AtlasA2Training,
        release: Release::LATEST,
    };
    let report = validate(&file.config, target);
    report.diagnostics.iter().any(|d| d.rule == Some(rule))
}

#[test]
fn dump_and_overflow_detection_exclusive_fires() {
    assert!(fires("npu_run_config: { dump_config: { enable_dump: true, enable_dump_debug: true, dump_path: /tmp/d } }", "dump-and-overflow-detection-exclusive"));
}

#[test]
fn dump_and_overflow_detection_exclusive_quiet() {
    assert!(!fires("npu_run_config: { dump_config: { enable_dump: true, enable_dump_debug: false, dump_path: /tmp/d } }", "dump-and-overflow-detection-exclusive"));
}

#[test]
fn dump_needs_path_fires() {
    assert!(fires(
        "npu_run_config: { dump_config: { enable_dump: true } }",
        "dump-needs-path"
    ));
}

#[test]
fn dump_needs_path_quiet() {
    assert!(!fires(
        "npu_run_config: { dump_config: { enable_dump: true, dump_path: /tmp/d } }",
        "dump-needs-path"
    ));
}

#[test]
fn overflow_detection_needs_path_fires() {
    assert!(fires(
        "npu_run_config: { dump_config: { enable_dump_debug: true } }",
        "overflow-detection-needs-path"
    ));
}

#[test]
fn overflow_detection_needs_path_quiet() {
    assert!(!fires(
        "npu_run_config: { dump_config: { enable_dump_debug: true, dump_path: /tmp/d } }",
        "overflow-detection-needs-path"
    ));
}

#[test]
fn exception_dump_with_data_dump_fires() {
    assert!(fires("npu_run_config: { enable_exception_dump: 1, dump_config: { enable_dump: true, dump_path: /tmp/d } }", "exception-dump-with-data-dump"));
}

#[test]
fn exception_dump_with_data_dump_quiet() {
    assert!(!fires("npu_run_config: { enable_exception_dump: 2, dump_config: { enable_dump: true, dump_path: /tmp/d } }", "exception-dump-with-data-dump"));
}

#[test]
fn precision_mode_v1_and_v2_exclusive_fires() {
    assert!(fires(
        "npu_run_config: { precision_mode: allow_fp32_to_fp16, precision_mode_v2: origin }",
        "precision-mode-v1-and-v2-exclusive"
    ));
}

#[test]
fn precision_mode_v1_and_v2_exclusive_quiet() {
    assert!(!fires(
        "npu_run_config: { precision_mode_v2: origin }",
        "precision-mode-v1-and-v2-exclusive"
    ));
}

#[test]
fn customize_dtypes_ignored_with_origin_fires() {
    assert!(fires(
        "npu_run_config: { customize_dtypes: /tmp/c.cfg, precision_mode_v2: origin }",
        "customize-dtypes-ignored-with-origin"
    ));
}

#[test]
fn customize_dtypes_ignored_with_origin_quiet() {
    assert!(!fires(
        "npu_run_config: { customize_dtypes: /tmp/c.cfg, precision_mode_v2: mixed_float16 }",
        "customize-dtypes-ignored-with-origin"
    ));
}

#[test]
fn customize_dtypes_ignored_with_keep_origin_fires() {
    assert!(fires(
        "npu_run_config: { customize_dtypes: /tmp/c.cfg, precision_mode: must_keep_origin_dtype }",
        "customize-dtypes-ignored-with-keep-origin"
    ));
}

#[test]
fn customize_dtypes_ignored_with_keep_origin_quiet() {
    assert!(!fires(
        "npu_run_config: { customize_dtypes: /tmp/c.cfg, precision_mode: allow_mix_precision }",
        "customize-dtypes-ignored-with-keep-origin"
    ));
}

#[test]
fn accelerate_train_mode_precision_fires() {
    assert!(fires("npu_run_config: { precision_mode: allow_mix_precision, experimental_config: { accelerate_train_mode: 'fast|step|0.9' } }", "accelerate-train-mode-precision"));
}

#[test]
fn accelerate_train_mode_precision_quiet() {
    assert!(!fires("npu_run_config: { precision_mode: must_keep_origin_dtype, experimental_config: { accelerate_train_mode: 'fast|step|0.9' } }", "accelerate-train-mode-precision"));
}

#[test]
fn accelerate_train_mode_precision_v2_fires() {
    assert!(fires("npu_run_config: { precision_mode_v2: mixed_float16, experimental_config: { accelerate_train_mode: 'fast|loss|1.05' } }", "accelerate-train-mode-precision-v2"));
}

#[test]
fn accelerate_train_mode_precision_v2_quiet() {
    assert!(!fires("npu_run_config: { precision_mode_v2: origin, experimental_config: { accelerate_train_mode: 'fast|loss|1.05' } }", "accelerate-train-mode-precision-v2"));
}

#[test]
fn op_precision_mode_overrides_implmode_fires() {
    assert!(fires(
        "npu_run_config: { op_precision_mode: /tmp/p.ini, op_select_implmode: high_precision }",
        "op-precision-mode-overrides-implmode"
    ));
}

#[test]
fn op_precision_mode_overrides_implmode_quiet() {
    assert!(!fires(
        "npu_run_config: { op_precision_mode: /tmp/p.ini }",
        "op-precision-mode-overrides-implmode"
    ));
}

#[test]
fn op_precision_mode_overrides_optypelist_fires() {
    assert!(fires(
        "npu_run_config: { op_precision_mode: /tmp/p.ini, optypelist_for_implmode: Pooling }",
        "op-precision-mode-overrides-optypelist"
    ));
}

#[test]
fn op_precision_mode_overrides_optypelist_quiet() {
    assert!(!fires(
        "npu_run_config: { op_precision_mode: /tmp/p.ini }",
        "op-precision-mode-overrides-optypelist"
    ));
}

#[test]
fn optypelist_needs_implmode_fires() {
    assert!(fires(
        "npu_run_config: { optypelist_for_implmode: 'Pooling,SoftmaxV2' }",
        "optypelist-needs-implmode"
    ));
}

#[test]
fn optypelist_needs_implmode_quiet() {
    assert!(!fires("npu_run_config: { optypelist_for_implmode: 'Pooling,SoftmaxV2', op_select_implmode: high_precision }", "optypelist-needs-implmode"));
}

#[test]
fn host_variables_need_mixed_computing_fires() {
    assert!(fires(
        "npu_run_config: { variable_placement: Host, mix_compile_mode: false }",
        "host-variables-need-mixed-computing"
    ));
}

#[test]
fn host_variables_need_mixed_computing_quiet() {
    assert!(!fires(
        "npu_run_config: { variable_placement: Host, mix_compile_mode: true }",
        "host-variables-need-mixed-computing"
    ));
}

#[test]
fn host_variables_need_mixed_computing_unset_fires() {
    assert!(fires(
        "npu_run_config: { variable_placement: Host }",
        "host-variables-need-mixed-computing-unset"
    ));
}

#[test]
fn host_variables_need_mixed_computing_unset_quiet() {
    assert!(!fires(
        "npu_run_config: { variable_placement: Device }",
        "host-variables-need-mixed-computing-unset"
    ));
}

#[test]
fn mixed_computing_needs_single_iteration_fires() {
    assert!(fires(
        "npu_run_config: { mix_compile_mode: true, iterations_per_loop: 10 }",
        "mixed-computing-needs-single-iteration"
    ));
}

#[test]
fn mixed_computing_needs_single_iteration_quiet() {
    assert!(!fires(
        "npu_run_config: { mix_compile_mode: true, iterations_per_loop: 1 }",
        "mixed-computing-needs-single-iteration"
    ));
}

#[test]
fn compile_dynamic_mode_vs_profiles_fires() {
    assert!(fires("npu_run_config: { compile_dynamic_mode: true, dynamic_input_config: { input_shape: 'data:1,-1', dynamic_dims: '1;2', dynamic_node_type: 1 } }", "compile-dynamic-mode-vs-profiles"));
}

#[test]
fn compile_dynamic_mode_vs_profiles_quiet() {
    assert!(!fires(
        "npu_run_config: { compile_dynamic_mode: true }",
        "compile-dynamic-mode-vs-profiles"
    ));
}

#[test]
fn dynamic_dims_override_shape_range_fires() {
    assert!(fires("npu_run_config: { dynamic_inputs_shape_range: 'data:[3~5]', dynamic_input_config: { dynamic_dims: '1;2' } }", "dynamic-dims-override-shape-range"));
}

#[test]
fn dynamic_dims_override_shape_range_quiet() {
    assert!(!fires(
        "npu_run_config: { dynamic_inputs_shape_range: 'data:[3~5]' }",
        "dynamic-dims-override-shape-range"
    ));
}

#[test]
fn dynamic_graph_execute_mode_needs_dynamic_input_fires() {
    assert!(fires(
        "npu_run_config: { dynamic_graph_execute_mode: dynamic_execute, dynamic_input: false }",
        "dynamic-graph-execute-mode-needs-dynamic-input"
    ));
}

#[test]
fn dynamic_graph_execute_mode_needs_dynamic_input_quiet() {
    assert!(!fires(
        "npu_run_config: { dynamic_graph_execute_mode: dynamic_execute, dynamic_input: true }",
        "dynamic-graph-execute-mode-needs-dynamic-input"
    ));
}

#[test]
fn hybrid_compile_needs_placeholders_fires() {
    assert!(fires("npu_run_config: { dynamic_input_config: { compile_hybrid_mode: 1, dynamic_node_type: 0 } }", "hybrid-compile-needs-placeholders"));
}

#[test]
fn hybrid_compile_needs_placeholders_quiet() {
    assert!(!fires("npu_run_config: { dynamic_input_config: { compile_hybrid_mode: 1, dynamic_node_type: 1 } }", "hybrid-compile-needs-placeholders"));
}

#[test]
fn shape_generalization_needs_online_compile_fires() {
    assert!(fires(
        "npu_run_config: { shape_generalization_mode: FULL, jit_compile: auto }",
        "shape-generalization-needs-online-compile"
    ));
}

#[test]
fn shape_generalization_needs_online_compile_quiet() {
    assert!(!fires(
        "npu_run_config: { shape_generalization_mode: FULL, jit_compile: 'true' }",
        "shape-generalization-needs-online-compile"
    ));
}

#[test]
fn shape_generalization_ignored_with_compile_dynamic_mode_fires() {
    assert!(fires("npu_run_config: { shape_generalization_mode: ADAPTIVE, jit_compile: 'true', compile_dynamic_mode: true }", "shape-generalization-ignored-with-compile-dynamic-mode"));
}

#[test]
fn shape_generalization_ignored_with_compile_dynamic_mode_quiet() {
    assert!(!fires("npu_run_config: { shape_generalization_mode: ADAPTIVE, jit_compile: 'true', compile_dynamic_mode: false }", "shape-generalization-ignored-with-compile-dynamic-mode"));
}

#[test]
fn aicore_num_ignored_with_prebuilt_binaries_fires() {
    assert!(fires(
        "npu_run_config: { aicore_num: '2|4', jit_compile: 'false' }",
        "aicore-num-ignored-with-prebuilt-binaries"
    ));
}

#[test]
fn aicore_num_ignored_with_prebuilt_binaries_quiet() {
    assert!(!fires(
        "npu_run_config: { aicore_num: '2|4', jit_compile: 'true' }",
        "aicore-num-ignored-with-prebuilt-binaries"
    ));
}

#[test]
fn op_debug_level_2_and_op_debug_config_fires() {
    assert!(fires(
        "npu_run_config: { op_debug_level: 2, op_debug_config: /root/dbg.cfg }",
        "op-debug-level-2-and-op-debug-config"
    ));
}

#[test]
fn op_debug_level_2_and_op_debug_config_quiet() {
    assert!(!fires(
        "npu_run_config: { op_debug_level: 3, op_debug_config: /root/dbg.cfg }",
        "op-debug-level-2-and-op-debug-config"
    ));
}

#[test]
fn collect_path_forbids_oom_check_fires() {
    assert!(fires("npu_run_config: { op_debug_config: /root/dbg.cfg }\nenv: { NPU_COLLECT_PATH: /var/collect }", "collect-path-forbids-oom-check"));
}

#[test]
fn collect_path_forbids_oom_check_quiet() {
    assert!(!fires(
        "npu_run_config: { op_debug_config: /root/dbg.cfg }",
        "collect-path-forbids-oom-check"
    ));
}

#[test]
fn collect_path_forces_exception_dump_fires() {
    assert!(fires(
        "npu_run_config: { enable_exception_dump: 2 }\nenv: { NPU_COLLECT_PATH: /var/collect }",
        "collect-path-forces-exception-dump"
    ));
}

#[test]
fn collect_path_forces_exception_dump_quiet() {
    assert!(!fires(
        "npu_run_config: { enable_exception_dump: 1 }\nenv: { NPU_COLLECT_PATH: /var/collect }",
        "collect-path-forces-exception-dump"
    ));
}

#[test]
fn hccl_timeout_overrides_env_fires() {
    assert!(fires(
        "npu_run_config: { hccl_timeout: 1800 }\nenv: { HCCL_EXEC_TIMEOUT: 600 }",
        "hccl-timeout-overrides-env"
    ));
}

#[test]
fn hccl_timeout_overrides_env_quiet() {
    assert!(!fires(
        "npu_run_config: { hccl_timeout: 1800 }",
        "hccl-timeout-overrides-env"
    ));
}

#[test]
fn aoe_mode_overrides_env_fires() {
    assert!(fires(
        "npu_run_config: { aoe_mode: '2' }\nenv: { AOE_MODE: '4' }",
        "aoe-mode-overrides-env"
    ));
}

#[test]
fn aoe_mode_overrides_env_quiet() {
    assert!(!fires(
        "npu_run_config: { aoe_mode: '2' }",
        "aoe-mode-overrides-env"
    ));
}

#[test]
fn session_device_id_overrides_env_fires() {
    assert!(fires(
        "npu_run_config: { session_device_id: 1 }\nenv: { ASCEND_DEVICE_ID: 0 }",
        "session-device-id-overrides-env"
    ));
}

#[test]
fn session_device_id_overrides_env_quiet() {
    assert!(!fires(
        "env: { ASCEND_DEVICE_ID: 0 }",
        "session-device-id-overrides-env"
    ));
}

#[test]
fn save_checkpoints_steps_and_secs_exclusive_fires() {
    assert!(fires(
        "npu_run_config: { save_checkpoints_steps: 100, save_checkpoints_secs: 600 }",
        "save-checkpoints-steps-and-secs-exclusive"
    ));
}

#[test]
fn save_checkpoints_steps_and_secs_exclusive_quiet() {
    assert!(!fires(
        "npu_run_config: { save_checkpoints_steps: 100 }",
        "save-checkpoints-steps-and-secs-exclusive"
    ));
}

#[test]
fn runconfig_keyword_rejected_fires() {
    assert!(fires(
        "npu_run_config: { device_fn: my_fn }",
        "runconfig-keyword-rejected"
    ));
}

#[test]
fn runconfig_keyword_rejected_quiet() {
    assert!(!fires(
        "npu_run_config: { model_dir: /tmp/model }",
        "runconfig-keyword-rejected"
    ));
}

#[test]
fn runconfig_protocol_rejected_fires() {
    assert!(fires(
        "npu_run_config: { protocol: grpc }",
        "runconfig-protocol-rejected"
    ));
}

#[test]
fn runconfig_protocol_rejected_quiet() {
    assert!(!fires(
        "npu_run_config: { model_dir: /tmp/model }",
        "runconfig-protocol-rejected"
    ));
}

#[test]
fn runconfig_experimental_distribute_rejected_fires() {
    assert!(fires(
        "npu_run_config: { experimental_distribute: cfg }",
        "runconfig-experimental-distribute-rejected"
    ));
}

#[test]
fn runconfig_experimental_distribute_rejected_quiet() {
    assert!(!fires(
        "npu_run_config: { model_dir: /tmp/model }",
        "runconfig-experimental-distribute-rejected"
    ));
}

#[test]
fn train_distribute_unsupported_fires() {
    assert!(fires(
        "npu_run_config: { train_distribute: strategy }",
        "train-distribute-unsupported"
    ));
}

#[test]
fn train_distribute_unsupported_quiet() {
    assert!(!fires(
        "npu_run_config: { keep_checkpoint_max: 5 }",
        "train-distribute-unsupported"
    ));
}

#[test]
fn eval_distribute_unsupported_fires() {
    assert!(fires(
        "npu_run_config: { eval_distribute: strategy }",
        "eval-distribute-unsupported"
    ));
}

#[test]
fn eval_distribute_unsupported_quiet() {
    assert!(!fires(
        "npu_run_config: { keep_checkpoint_max: 5 }",
        "eval-distribute-unsupported"
    ));
}

#[test]
fn graph_memory_max_size_no_effect_fires() {
    assert!(fires(
        "npu_run_config: { graph_memory_max_size: '26843545600' }",
        "graph-memory-max-size-no-effect"
    ));
}

#[test]
fn graph_memory_max_size_no_effect_quiet() {
    assert!(!fires(
        "npu_run_config: { graph_run_mode: 1 }",
        "graph-memory-max-size-no-effect"
    ));
}

#[test]
fn variable_memory_max_size_no_effect_fires() {
    assert!(fires(
        "npu_run_config: { variable_memory_max_size: '5368709120' }",
        "variable-memory-max-size-no-effect"
    ));
}

#[test]
fn variable_memory_max_size_no_effect_quiet() {
    assert!(!fires(
        "npu_run_config: { graph_run_mode: 1 }",
        "variable-memory-max-size-no-effect"
    ));
}

#[test]
fn small_channel_fixed_for_inference_fires() {
    assert!(fires(
        "npu_run_config: { graph_run_mode: 0, enable_small_channel: 0 }",
        "small-channel-fixed-for-inference"
    ));
}

#[test]
fn small_channel_fixed_for_inference_quiet() {
    assert!(!fires(
        "npu_run_config: { graph_run_mode: 1, enable_small_channel: 0 }",
        "small-channel-fixed-for-inference"
    ));
}

#[test]
fn input_fusion_limits_batch_copy_fires() {
    assert!(fires(
        "npu_run_config: { input_batch_cpy: true, input_fusion_size: 131072 }",
        "input-fusion-limits-batch-copy"
    ));
}

#[test]
fn input_fusion_limits_batch_copy_quiet() {
    assert!(!fires(
        "npu_run_config: { input_batch_cpy: true, input_fusion_size: 0 }",
        "input-fusion-limits-batch-copy"
    ));
}

#[test]
fn quant_dumpable_without_dump_fires() {
    assert!(fires(
        "npu_run_config: { quant_dumpable: '1', dump_config: { enable_dump: false } }",
        "quant-dumpable-without-dump"
    ));
}

#[test]
fn quant_dumpable_without_dump_quiet() {
    assert!(!fires("npu_run_config: { quant_dumpable: '1', dump_config: { enable_dump: true, dump_path: /tmp/d } }", "quant-dumpable-without-dump"));
}

#[test]
fn profiling_options_without_profiling_fires() {
    assert!(fires("npu_run_config: { profiling_config: { enable_profiling: false, profiling_options: '{\"output\":\"/tmp/p\"}' } }", "profiling-options-without-profiling"));
}

#[test]
fn profiling_options_without_profiling_quiet() {
    assert!(!fires("npu_run_config: { profiling_config: { enable_profiling: true, profiling_options: '{\"output\":\"/tmp/p\"}' } }", "profiling-options-without-profiling"));
}

#[test]
fn multistream_dynamic_shape_needs_env_fires() {
    assert!(fires(
        "npu_run_config: { auto_multistream_parallel_mode: cv }",
        "multistream-dynamic-shape-needs-env"
    ));
}

#[test]
fn multistream_dynamic_shape_needs_env_quiet() {
    assert!(!fires("npu_run_config: { auto_multistream_parallel_mode: cv }\nenv: { ENABLE_DYNAMIC_SHAPE_MULTI_STREAM: 1 }", "multistream-dynamic-shape-needs-env"));
}

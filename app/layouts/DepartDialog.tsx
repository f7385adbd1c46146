import { useEffect, useState } from 'react';
import { Form, Modal, Select, Spin } from 'antd';
import { useAtom, useSetAtom } from 'jotai';
import { menuAtom, userInfoAtom, type UserInfo } from '@core/session/store';
import { http } from '@core/http/client';
import { errorText } from '@core/http/errors';
import { feedback } from '@core/feedback';
import type { Depart } from '@core/session/actions';

/** 切换部门 (SPEC §4): preselects the current department; no departments → warning and close. */
export function DepartDialog({ onClose }: { onClose: () => void }) {
  const [user, setUser] = useAtom(userInfoAtom);
  const setMenu = useSetAtom(menuAtom);
  const [form] = Form.useForm();
  const [departs, setDeparts] = useState<Depart[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [current, setCurrent] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    http
      .get<{ list: Depart[]; orgCode: string }>('/sys/user/getCurrentUserDeparts')
      .then((r) => {
        if (!live) return;
        const list = r.success ? (r.result?.list ?? []) : [];
        if (!list.length) {
          feedback.message.warning('您尚未设置部门信息!');
          onClose();
          return;
        }
        setCurrent(r.result.orgCode || user?.orgCode || undefined);
        setDeparts(list);
      })
      .catch((e) => {
        if (!live) return;
        feedback.message.error(errorText(e));
        onClose();
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [onClose]);

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      const r = await http.put<{ userInfo: UserInfo }>('/sys/selectDepart', { orgCode: v.orgCode, username: user?.username });
      if (!r.success) throw new Error(r.message || '切换失败');
      const d = departs?.find((x) => x.orgCode === v.orgCode);
      setUser({ ...(user ?? {}), ...(r.result?.userInfo ?? {}), orgCode: v.orgCode, orgCodeTxt: d?.departName } as UserInfo);
      setMenu(null); // the department may change what the user can see
      feedback.message.success('部门切换成功');
      onClose();
    } catch (e) {
      feedback.message.warning(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="切换部门" width={500} open={departs !== null} onOk={() => void submit()} onCancel={onClose} confirmLoading={busy} okText="确定" cancelText="取消" destroyOnHidden>
      {departs === null ? (
        <Spin />
      ) : (
        <Form form={form} layout="vertical" style={{ marginTop: 16 }} initialValues={{ orgCode: current }}>
          <Form.Item label="所属部门" name="orgCode" rules={[{ required: true, message: '请选择部门' }]}>
            <Select placeholder="请选择部门" options={departs.map((d) => ({ value: d.orgCode, label: d.departName }))} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

import {
  AppstoreOutlined, AuditOutlined, BankOutlined, BarChartOutlined, BellOutlined, BookOutlined, CalendarOutlined, CheckCircleOutlined,
  ClusterOutlined, DashboardOutlined, DatabaseOutlined, DesktopOutlined, EditOutlined, ExperimentOutlined, FileTextOutlined, FormOutlined,
  HomeOutlined, LineChartOutlined, MessageOutlined, PieChartOutlined, ProfileOutlined, ReadOutlined, SafetyOutlined, ScheduleOutlined,
  SettingOutlined, SolutionOutlined, TableOutlined, TeamOutlined, ToolOutlined, UserOutlined, WarningOutlined, FundOutlined, CloudOutlined,
  ApartmentOutlined, LockOutlined, NotificationOutlined, FolderOutlined, FileSearchOutlined, AlertOutlined, ControlOutlined, ContainerOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** Menu icon names (JeecgBoot Vue2 names, with or without an `ant-design:` prefix / `-outlined` suffix) → icons. */
const ICONS: Record<string, ReactNode> = {
  appstore: <AppstoreOutlined />, audit: <AuditOutlined />, bank: <BankOutlined />, 'bar-chart': <BarChartOutlined />, bell: <BellOutlined />,
  book: <BookOutlined />, calendar: <CalendarOutlined />, 'check-circle': <CheckCircleOutlined />, cluster: <ClusterOutlined />,
  dashboard: <DashboardOutlined />, database: <DatabaseOutlined />, desktop: <DesktopOutlined />, monitor: <DesktopOutlined />, edit: <EditOutlined />,
  experiment: <ExperimentOutlined />, 'file-text': <FileTextOutlined />, form: <FormOutlined />, home: <HomeOutlined />, 'line-chart': <LineChartOutlined />,
  message: <MessageOutlined />, 'pie-chart': <PieChartOutlined />, profile: <ProfileOutlined />, read: <ReadOutlined />, safety: <SafetyOutlined />,
  schedule: <ScheduleOutlined />, setting: <SettingOutlined />, solution: <SolutionOutlined />, table: <TableOutlined />, team: <TeamOutlined />,
  tool: <ToolOutlined />, user: <UserOutlined />, warning: <WarningOutlined />, fund: <FundOutlined />, cloud: <CloudOutlined />,
  apartment: <ApartmentOutlined />, lock: <LockOutlined />, notification: <NotificationOutlined />, folder: <FolderOutlined />,
  'file-search': <FileSearchOutlined />, alert: <AlertOutlined />, control: <ControlOutlined />, container: <ContainerOutlined />,
};

/** The icon names a menu can use (the keys above). */
export const MENU_ICON_NAMES = Object.keys(ICONS);

export function menuIcon(name?: string): ReactNode {
  if (!name) return undefined;
  const key = name.replace(/^ant-design:/, '').replace(/-(outlined|filled|twotone|o)$/, '');
  return ICONS[key] ?? <AppstoreOutlined />;
}
